// Handles one callback job, at its time and with the campaign's checks: not before `at`; the campaign
// running or completed (a promised callback is kept after the campaign's last lead), held while it is
// draft, scheduled or paused, failed once it is stopped or deleted; the lead neither removed nor
// suppressed; the person's calling hours; then the checks of every campaign call (dial-gate.ts: the
// person's line, which the lead's own call holds while it rings, a call slot, the suppression list,
// the calls per minute).
// Then the callback is claimed by a conditional write (scheduled to dialing), so
// a job handled twice, or racing a cancel, dials at most once, and its call placed through the calls
// service with one idempotency key per callback. A call the wallet cannot fund is tried again later.
import type { JsonObject } from '@bufbuild/protobuf';
import type { CallbackFailureReason } from '@voice/contracts/callbacks';
import { serviceCaller, type WorkspaceCaller } from '@voice/runtime/caller';
import { jobDone, jobLater, type JobOutcome } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import type { Logger } from '@voice/runtime/logger';
import { callbackExpired, callbackHoursOpenInMs, callbackZone } from '../domain/callback-time.js';
import type { CallbackRecord } from '../store/callback-store.js';
import type { CampaignRecord, CampaignStore, LeadRecord } from '../store/store.js';
import type { CallbackJob } from './callback-job.js';
import { callbackSlotHolder } from './call-slots.js';
import { concurrencyRecheckMs, turnOf, type CampaignCall, type DialGate } from './dial-gate.js';

/** How soon a callback held back by its campaign's state (draft, scheduled, paused) looks again. */
export const callbackHeldRecheckMs = 60_000;
/** How soon a callback the wallet could not fund is tried again (until it expires). */
export const unfundedCallbackRetryMs = 5 * 60_000;

export interface CallbackDialerDeps {
  store: CampaignStore;
  /** The checks and the placement every campaign call shares with the leads' dialer: a callback's call holds a slot until it ends. */
  gate: DialGate;
  now: () => Date;
  logger: Logger;
}

/** The metadata a callback's call carries: how its end finds the callback again (and how GET /calls shows whose it is). */
export const callbackCallMetadata = (callback: CallbackRecord): JsonObject => ({
  campaign_id: callback.campaignId,
  callback_id: callback.id,
  ...(callback.leadId ? { lead_id: callback.leadId } : {}),
});

export class CallbackDialer {
  constructor(private readonly deps: CallbackDialerDeps) {}

  async handle(job: CallbackJob): Promise<JobOutcome> {
    const { store, gate } = this.deps;
    const callback = await store.callbacks.getCallback(job.workspace, job.callback);
    if (!callback) return jobDone;
    // Claimed by an earlier delivery that did not get as far as recording its call: the call's
    // idempotency key makes placing it again answer the same call.
    if (callback.status === 'dialing' && callback.callId === null) {
      const campaign = await store.getCampaign(callback.workspaceId, callback.campaignId);
      if (!campaign) return this.fail(callback, 'campaign_deleted', ['dialing']);
      // Its dialer stopped within the calling hours: not placed once they have closed meanwhile.
      const closed = hoursClosed(callback, campaign, await this.leadOf(callback), this.deps.now().getTime());
      if (closed) return closed;
      // Its line and slot are still taken by this callback, unless reclaimed meanwhile.
      if (!(await gate.retake(this.callOf(callback, campaign)))) return jobLater(concurrencyRecheckMs);
      return this.place(callback, campaign);
    }
    if (callback.status !== 'scheduled') return jobDone;
    const now = this.deps.now().getTime();
    const dueIn = Date.parse(callback.at) - now;
    if (dueIn > 0) return jobLater(dueIn);
    if (callbackExpired(callback.at, now)) return this.fail(callback, 'expired');
    const campaign = await store.getCampaign(callback.workspaceId, callback.campaignId);
    if (!campaign) return this.fail(callback, 'campaign_deleted');
    if (campaign.status === 'stopped') return this.fail(callback, 'campaign_stopped');
    if (campaign.status !== 'running' && campaign.status !== 'completed') return jobLater(callbackHeldRecheckMs);
    const lead = await this.leadOf(callback);
    if (callback.leadId !== null) {
      if (!lead || lead.status === 'removed') return this.fail(callback, 'lead_removed');
      if (lead.status === 'do_not_call') return this.fail(callback, 'suppressed');
    }
    const held = await this.holdBack(callback, campaign, lead, now);
    if (held) return held;
    const claimed = await store.callbacks.transitionCallback(
      callback.workspaceId,
      callback.id,
      { statuses: ['scheduled'], attempts: callback.attempts },
      { status: 'dialing', attempts: callback.attempts + 1 },
      this.now(),
    );
    if (!claimed) {
      // Cancelled meanwhile, or claimed by another delivery of this job (which holds the same line and slot and releases them).
      if ((await store.callbacks.getCallback(callback.workspaceId, callback.id))?.status !== 'dialing') await gate.release(this.callOf(callback, campaign));
      return jobDone;
    }
    return this.place(claimed, campaign);
  }

  /**
   * Why the callback is not placed now: a later time to look again, or done (suppressed); undefined to
   * place it, with the person's line and its call slot taken.
   */
  private async holdBack(callback: CallbackRecord, campaign: CampaignRecord, lead: LeadRecord | undefined, now: number): Promise<JobOutcome | undefined> {
    const closed = hoursClosed(callback, campaign, lead, now);
    if (closed) return closed;
    const clearance = await this.deps.gate.clear(this.caller(callback), this.callOf(callback, campaign), now);
    if (clearance === 'clear') return undefined;
    // A number suppressed since the callback was made is not called.
    return clearance === 'suppressed' ? this.fail(callback, 'suppressed') : clearance;
  }

  private async place(callback: CallbackRecord, campaign: CampaignRecord): Promise<JobOutcome> {
    const { store, logger } = this.deps;
    const placement = await this.deps.gate.place(this.caller(callback), this.callOf(callback, campaign), turnOf(callback.id), {
      variables: callback.variables,
      metadata: callbackCallMetadata(callback),
      idempotencyKey: `campaign-callback-${callback.id}`,
    });
    const dialing = { statuses: ['dialing'] as const, attempts: callback.attempts };
    if (placement.kind === 'unfunded') {
      // Not the person's doing: the callback waits for funds, until it expires.
      await store.callbacks.transitionCallback(callback.workspaceId, callback.id, dialing, { status: 'scheduled' }, this.now());
      logger.warn('callback put off: the wallet cannot fund its call', { callbackId: callback.id, campaignId: campaign.id, reason: placement.reason });
      return jobLater(unfundedCallbackRetryMs);
    }
    if (placement.kind === 'refused') {
      logger.warn('callback call refused; the callback failed', { callbackId: callback.id, campaignId: campaign.id, reason: placement.reason });
      return this.fail(callback, 'call_refused', ['dialing']);
    }
    // Recorded only while it is still dialing: a call that already ended recorded itself with its outcome.
    await store.callbacks.transitionCallback(callback.workspaceId, callback.id, dialing, { status: 'dialing', callId: placement.callId }, this.now());
    return jobDone;
  }

  private async fail(callback: CallbackRecord, reason: CallbackFailureReason, from: readonly ('scheduled' | 'dialing')[] = ['scheduled']): Promise<JobOutcome> {
    await this.deps.store.callbacks.transitionCallback(callback.workspaceId, callback.id, { statuses: from, attempts: callback.attempts }, { status: 'failed', failureReason: reason }, this.now());
    this.deps.logger.info('callback failed', { callbackId: callback.id, campaignId: callback.campaignId, reason });
    return jobDone;
  }

  private leadOf(callback: CallbackRecord): Promise<LeadRecord | undefined> {
    return callback.leadId === null ? Promise.resolve(undefined) : this.deps.store.getLead(callback.workspaceId, callback.leadId);
  }

  /** The callback's call as its campaign's pacing counts it. */
  private callOf(callback: CallbackRecord, campaign: CampaignRecord): CampaignCall {
    return { campaign, holder: callbackSlotHolder(callback.id), phone: callback.phone };
  }

  private caller(callback: CallbackRecord): WorkspaceCaller {
    return serviceCaller('campaigns-dialer', callback.workspaceId, newId());
  }

  private now(): string {
    return this.deps.now().toISOString();
  }
}

/** When the calling hours of the callback's person are closed: the job again when they open. */
function hoursClosed(callback: CallbackRecord, campaign: CampaignRecord, lead: LeadRecord | undefined, now: number): JobOutcome | undefined {
  const opensIn = callbackHoursOpenInMs(callbackZone(lead?.timeZone ?? null, callback.timeZone, campaign.settings.window), now);
  return opensIn > 0 ? jobLater(opensIn) : undefined;
}
