// The workspace's do-not-contact list: a destination on it is refused before any carrier or charge.
import type { WorkspaceCaller } from '@voice/runtime/caller';
import { serviceError } from '@voice/runtime/errors';
import { newId } from '@voice/runtime/ids';
import { normalisePage } from '@voice/runtime/validation';
import type { AddSuppressionRequest, ListSuppressionsRequest, RemoveSuppressionRequest } from '@voice/proto/voice/telephony/v1/telephony';
import { addSuppressionBodySchema, parseE164 } from '@voice/contracts/telephony';
import { presentSuppression } from '../presenter.js';
import type { SuppressionStore } from '../store/store.js';
import type { TelephonyDeps } from '../deps.js';
import { loadOr404, parseInput } from '../input.js';

export function suppressionList(deps: TelephonyDeps<SuppressionStore>) {
  const { store } = deps;
  return {
    async listSuppressions(request: ListSuppressionsRequest, caller: WorkspaceCaller) {
      const { entries, total } = await store.listSuppressions(caller.workspaceId, normalisePage(request.page));
      return { suppressions: entries.map(presentSuppression), total };
    },

    async addSuppression(request: AddSuppressionRequest, caller: WorkspaceCaller) {
      const input = parseInput(addSuppressionBodySchema, { number: request.number, reason: request.reason || undefined });
      const number = parseE164(input.number)!.number;
      const outcome = await store.insertSuppression({
        id: newId(),
        workspaceId: caller.workspaceId,
        number,
        reason: input.reason ?? '',
        createdAt: deps.now().toISOString(),
      });
      if (outcome.kind === 'exists') throw serviceError('conflict', `${number} is already on the suppression list`);
      return { suppression: presentSuppression(outcome.entry) };
    },

    async removeSuppression(request: RemoveSuppressionRequest, caller: WorkspaceCaller) {
      await loadOr404('suppression entry', request.id, async (id) => ((await store.deleteSuppression(caller.workspaceId, id)) ? true : undefined));
      return {};
    },
  };
}
