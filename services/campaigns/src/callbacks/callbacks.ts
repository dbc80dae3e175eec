// The CallbacksService: a lead (or a caller's number with a campaign) to be called back at a time the
// person asked for. Creating one checks the lead, the campaign, the number against the suppression
// list and the time against the callback rules (domain/callback-time.ts), then enqueues its job when
// it is due soon (the dialer's due-callbacks job enqueues the later ones). Cancelling is a
// conditional write, so a cancel and the dialer's claim never both win.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { workspaceCallerOf, type WorkspaceCaller } from '@voice/runtime/caller';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { isUuid, newId } from '@voice/runtime/ids';
import { normalisePage, validate } from '@voice/runtime/validation';
import type { CallbacksService, CancelCallbackRequest, CreateCallbackRequest, GetCallbackRequest, ListCallbacksRequest } from '@voice/proto/voice/campaigns/v1/callbacks';
import { callbackStatuses, createCallbackBodySchema, type CallbackStatus } from '@voice/contracts/callbacks';
import { parseE164 } from '@voice/contracts/telephony';
import type { CampaignsDeps } from '../deps.js';
import { callbackTimeIssue, callbackZone } from '../domain/callback-time.js';
import { dueForQueue, enqueueCallback } from '../dialer/callback-job.js';
import { loadCampaign } from '../lookups.js';
import type { CallbackRecord } from '../store/callback-store.js';
import type { CampaignRecord, LeadRecord } from '../store/store.js';
import { presentCallback } from './callback-presenter.js';

export class Callbacks implements ServiceImpl<typeof CallbacksService> {
  constructor(private readonly deps: CampaignsDeps) {}

  async createCallback(request: CreateCallbackRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const input = validate(createCallbackBodySchema, request.body ?? {});
    if (!input.ok) throw invalidRequest(input.issues);
    const body = input.value;
    const { campaign, lead, phone } = body.lead_id !== undefined ? await this.leadTarget(caller, body.lead_id, body.campaign_id) : await this.numberTarget(caller, body.phone!, body.campaign_id!);
    const now = this.deps.now();
    const at = Date.parse(body.at);
    const timeIssue = callbackTimeIssue(at, now.getTime(), callbackZone(lead?.timeZone ?? null, body.time_zone ?? null, phone, campaign.settings.window));
    if (timeIssue) throw invalidRequest([{ field: 'at', issue: timeIssue }]);
    if ((await this.deps.peers.suppressedAmong(caller, [phone])).has(phone)) {
      throw serviceError('destination_forbidden', "the number is on this workspace's suppression list");
    }
    const created = now.toISOString();
    const callback: CallbackRecord = {
      id: newId(),
      workspaceId: caller.workspaceId,
      campaignId: campaign.id,
      leadId: lead?.id ?? null,
      phone,
      timeZone: body.time_zone ?? null,
      at: new Date(at).toISOString(),
      variables: { ...lead?.variables, ...body.variables },
      note: body.note ?? '',
      status: 'scheduled',
      failureReason: null,
      attempts: 0,
      callId: null,
      createdAt: created,
      updatedAt: created,
    };
    await this.deps.store.callbacks.insertCallback(callback);
    // After the commit; one lost here is enqueued by the dialer's due-callbacks job before its time.
    if (dueForQueue(callback, now.getTime())) await enqueueCallback(this.deps.callbackQueue, callback);
    return { callback: presentCallback(callback) };
  }

  async getCallback(request: GetCallbackRequest, context: HandlerContext) {
    return { callback: presentCallback(await this.load(workspaceCallerOf(context), request.id)) };
  }

  async listCallbacks(request: ListCallbacksRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    if (request.status && !(callbackStatuses as readonly string[]).includes(request.status)) {
      throw invalidRequest([{ field: 'status', issue: `must be one of ${callbackStatuses.join(', ')}` }]);
    }
    // A campaign or lead named in a filter must be the workspace's: an empty list would hide a typo.
    const campaign = request.campaignId ? await loadCampaign(this.deps.store, caller, request.campaignId) : undefined;
    const lead = request.leadId ? await this.loadLead(caller, request.leadId) : undefined;
    const { callbacks, total } = await this.deps.store.callbacks.listCallbacks(
      caller.workspaceId,
      { status: (request.status || undefined) as CallbackStatus | undefined, campaignId: campaign?.id, leadId: lead?.id },
      normalisePage(request.page),
    );
    return { callbacks: callbacks.map(presentCallback), total };
  }

  async cancelCallback(request: CancelCallbackRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const callback = await this.load(caller, request.id);
    const cancelled =
      callback.status === 'cancelled'
        ? callback
        : await this.deps.store.callbacks.transitionCallback(caller.workspaceId, callback.id, { statuses: ['scheduled'] }, { status: 'cancelled' }, this.deps.now().toISOString());
    if (cancelled) return { callback: presentCallback(cancelled) };
    // The dialer claimed it (or another cancel won) between the read and the write.
    const now = await this.load(caller, request.id);
    if (now.status === 'cancelled') return { callback: presentCallback(now) };
    throw serviceError('conflict', cancelRefusal(now.status));
  }

  private async load(caller: WorkspaceCaller, id: string): Promise<CallbackRecord> {
    const callback = isUuid(id) ? await this.deps.store.callbacks.getCallback(caller.workspaceId, id) : undefined;
    if (!callback) throw notFound('callback');
    return callback;
  }

  private async loadLead(caller: WorkspaceCaller, id: string): Promise<LeadRecord> {
    const lead = isUuid(id) ? await this.deps.store.getLead(caller.workspaceId, id) : undefined;
    if (!lead) throw notFound('lead');
    return lead;
  }

  private async leadTarget(caller: WorkspaceCaller, leadId: string, campaignId: string | undefined): Promise<{ campaign: CampaignRecord; lead: LeadRecord; phone: string }> {
    const lead = await this.loadLead(caller, leadId);
    if (campaignId !== undefined && campaignId !== lead.campaignId) throw invalidRequest([{ field: 'campaign_id', issue: 'is not the lead’s campaign; leave it out to use the lead’s' }]);
    if (lead.status === 'removed') throw serviceError('conflict', 'the lead was removed from its campaign; it is not called again');
    if (lead.status === 'do_not_call') throw serviceError('destination_forbidden', "the lead's number is on this workspace's suppression list");
    return { campaign: await loadCampaign(this.deps.store, caller, lead.campaignId), lead, phone: lead.phone };
  }

  private async numberTarget(caller: WorkspaceCaller, phoneText: string, campaignId: string): Promise<{ campaign: CampaignRecord; lead: undefined; phone: string }> {
    const campaign = await loadCampaign(this.deps.store, caller, campaignId);
    const phone = parseE164(phoneText)?.number;
    if (!phone) throw invalidRequest([{ field: 'phone', issue: 'must be a valid phone number in international format with a leading +' }]);
    return { campaign, lead: undefined, phone };
  }
}

const cancelRefusal = (status: CallbackStatus): string =>
  status === 'dialing' ? 'the callback is being placed; it can no longer be cancelled' : `the callback is ${status}; only a scheduled callback can be cancelled`;
