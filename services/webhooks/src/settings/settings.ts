// The workspace's webhook settings: the balance.low threshold.
import type { HandlerContext } from '@connectrpc/connect';
import { workspaceCallerOf } from '@voice/runtime/caller';
import { parseCredits } from '@voice/runtime/amounts';
import { invalidRequest } from '@voice/runtime/errors';
import { definedFields, validate } from '@voice/runtime/validation';
import { updateWebhookSettingsBodySchema } from '@voice/contracts/webhooks';
import type { UpdateSettingsRequest } from '@voice/proto/voice/webhooks/v1/webhooks';
import { presentSettings } from '../presenter.js';
import type { SettingsStore } from '../store/store.js';

export class WebhookSettings {
  constructor(private readonly store: SettingsStore) {}

  async get(context: HandlerContext) {
    return { settings: presentSettings(await this.store.getSettings(workspaceCallerOf(context).workspaceId)) };
  }

  async update(request: UpdateSettingsRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const given = request.balanceLowThreshold === undefined ? undefined : request.balanceLowThreshold === '' ? null : request.balanceLowThreshold;
    const input = validate(updateWebhookSettingsBodySchema, definedFields({ balance_low_threshold: given }));
    if (!input.ok) throw invalidRequest(input.issues);
    const threshold = input.value.balance_low_threshold;
    if (threshold === undefined) return this.get(context);
    const units = threshold === null ? null : parseCredits(threshold)!;
    return { settings: presentSettings(await this.store.setBalanceLowThreshold(caller.workspaceId, units)) };
  }
}
