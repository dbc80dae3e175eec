// Handles one callback job, at its time and with the campaign's checks: not before `at`; the campaign
// running or completed (a promised callback is kept after the campaign's last lead), held while it is
// draft, scheduled or paused, failed once it is stopped or deleted; the lead neither removed nor
// suppressed, and not in its campaign's own call; the person's calling hours; the campaign's pacing;
// the suppression list. Then the callback is claimed by a conditional write (scheduled to dialing), so
// a job handled twice, or racing a cancel, dials at most once, and its call placed through the calls
// service with one idempotency key per callback. A call the wallet cannot fund is tried again later.
import type { JsonObject } from '@bufbuild/protobuf';
import type { CallbackFailureReason } from '@voice/contracts/callbacks';
import { serviceCaller, type WorkspaceCaller } from '@voice/runtime/caller';
import type { WindowCounter } from '@voice/runtime/counters';
import { jobDone, jobLater, type JobOutcome } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import type { Logger } from '@voice/runtime/logger';
import { callbackExpired, callbackHoursOpenInMs, callbackZone } from '../domain/callback-time.js';
import type { CampaignPeers } from '../peers/peers.js';
import type { CallbackRecord } from '../store/callback-store.js';
import type { CampaignRecord, CampaignStore, LeadRecord } from '../store/store.js';
import type { CallPlacer } from './call-placer.js';
import type { CallbackJob } from './callback-job.js';
import { leadTurn } from './dialer.js';
import { callsInProgress, concurrencyRecheckMs, rateWaitMs } from './pacing.js';

/** How soon a callback held back by its campaign's state, or by its lead's own call, looks again. */
export const callbackHeldRecheckMs = 60_000;
/** How soon a callback the wallet could not fund is tried again (until it expires). */
export const unfundedCallbackRetryMs = 5 * 60_000;

export interface CallbackDialerDeps {
  store: CampaignStore;
  peers: Pick<CampaignPeers, 'suppressedAmong' | 'numberOf'>;
  calls: CallPlacer;
  /** Calls started per campaign in the current minute, shared with the leads' dials. */
  dialRates: WindowCounter;
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
    const { store } = this.deps;
    const callback = await store.callbacks.getCallback(job.workspace, job.callback);
    if (!callback) return jobDone;
    // Claimed by an earlier delivery that did not get as far as recording its call: the call's
    // idempotency key makes placing it again answer the same call.
    if (callback.status === 'dialing' && callback.callId === null) {
      const campaign = await store.getCampaign(callback.workspaceId, callback.campaignId);
      if (!campaign) return this.fail(callback, 'campaign_deleted', ['dialing']);
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
    const lead = callback.leadId === null ? undefined : await store.getLead(callback.workspaceId, callback.leadId);
    if (callback.leadId !== null) {
      if (!lead || lead.status === 'removed') return this.fail(callback, 'lead_removed');
      if (lead.status === 'do_not_call') return this.fail(callback, 'suppressed');
      if (lead.status === 'calling') return jobLater(concurrencyRecheckMs);
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
    // Cancelled meanwhile, or claimed by another delivery of this job.
    if (!claimed) return jobDone;
    return this.place(claimed, campaign);
  }

  /** Why the callback is not placed now: a later time to look again, or done (suppressed); undefined to place it. */
  private async holdBack(callback: CallbackRecord, campaign: CampaignRecord, lead: LeadRecord | undefined, now: number): Promise<JobOutcome | undefined> {
    const opensIn = callbackHoursOpenInMs(callbackZone(lead?.timeZone ?? null, callback.timeZone, campaign.settings.window), now);
    if (opensIn > 0) return jobLater(opensIn);
    if ((await callsInProgress(this.deps.store, campaign)) >= campaign.settings.pacing.max_concurrent) return jobLater(concurrencyRecheckMs);
    const caller = this.caller(callback);
    // Asked last, as close to the dial as it gets: a number suppressed since the callback was made is not called.
    if ((await this.deps.peers.suppressedAmong(caller, [callback.phone])).has(callback.phone)) return this.fail(callback, 'suppressed');
    const rateWait = await rateWaitMs(this.deps.dialRates, campaign, now);
    if (rateWait > 0) return jobLater(rateWait);
    return undefined;
  }

  private async place(callback: CallbackRecord, campaign: CampaignRecord): Promise<JobOutcome> {
    const { store, logger } = this.deps;
    const caller = this.caller(callback);
    const numbers = campaign.settings.from_number_ids;
    const from = await this.deps.peers.numberOf(caller, numbers[leadTurn(callback.id) % numbers.length]!);
    const placement = from
      ? await this.deps.calls.place(caller, {
          assistantId: campaign.settings.assistant_id,
          from,
          to: callback.phone,
          variables: callback.variables,
          metadata: callbackCallMetadata(callback),
          idempotencyKey: `campaign-callback-${callback.id}`,
        })
      : ({ kind: 'refused', reason: 'the number the campaign calls from is no longer the workspace’s' } as const);
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

  private caller(callback: CallbackRecord): WorkspaceCaller {
    return serviceCaller('campaigns-dialer', callback.workspaceId, newId());
  }

  private now(): string {
    return this.deps.now().toISOString();
  }
}
