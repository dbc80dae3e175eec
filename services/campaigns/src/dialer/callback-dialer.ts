// Handles one callback job, at its time and with the campaign's checks: not before `at`; the campaign
// running or completed (a promised callback is kept after the campaign's last lead), held while it is
// draft, scheduled or paused, failed once it is stopped or deleted; the lead neither removed nor
// suppressed, and not in its campaign's own call; the person's calling hours; the campaign's pacing
// (a call slot of the campaign, and its calls per minute);
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
import { callbackSlotHolder, callSlotGroup, type CallSlots } from './call-slots.js';
import { concurrencyRecheckMs, leadTurn } from './dialer.js';
import { FromNumbers } from './from-numbers.js';
import { rateWaitMs } from './pacing.js';

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
  /** Calls in progress per campaign, shared with the leads' dials: a callback's call holds a slot until it ends. */
  callSlots: CallSlots;
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
  private readonly fromNumbers: FromNumbers;

  constructor(private readonly deps: CallbackDialerDeps) {
    this.fromNumbers = new FromNumbers(deps.peers);
  }

  async handle(job: CallbackJob): Promise<JobOutcome> {
    const { store } = this.deps;
    const callback = await store.callbacks.getCallback(job.workspace, job.callback);
    if (!callback) return jobDone;
    // Claimed by an earlier delivery that did not get as far as recording its call: the call's
    // idempotency key makes placing it again answer the same call.
    if (callback.status === 'dialing' && callback.callId === null) {
      const campaign = await store.getCampaign(callback.workspaceId, callback.campaignId);
      if (!campaign) return this.fail(callback, 'campaign_deleted', ['dialing']);
      // Its slot is still taken by this callback, unless reclaimed meanwhile.
      if (!(await this.takeSlot(callback, campaign))) return jobLater(concurrencyRecheckMs);
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
    if (!claimed) {
      // Cancelled meanwhile, or claimed by another delivery of this job (which holds the same slot and releases it).
      if ((await store.callbacks.getCallback(callback.workspaceId, callback.id))?.status !== 'dialing') await this.releaseSlot(callback, campaign);
      return jobDone;
    }
    return this.place(claimed, campaign);
  }

  /**
   * Why the callback is not placed now: a later time to look again, or done (suppressed); undefined to
   * place it, with its call slot taken.
   */
  private async holdBack(callback: CallbackRecord, campaign: CampaignRecord, lead: LeadRecord | undefined, now: number): Promise<JobOutcome | undefined> {
    const opensIn = callbackHoursOpenInMs(callbackZone(lead?.timeZone ?? null, callback.timeZone, campaign.settings.window), now);
    if (opensIn > 0) return jobLater(opensIn);
    if (!(await this.takeSlot(callback, campaign))) return jobLater(concurrencyRecheckMs);
    const held = await this.holdBackWithSlot(callback, campaign, now);
    if (held) await this.releaseSlot(callback, campaign);
    return held;
  }

  /** The checks made while the call's slot is taken: as close to the dial as they get. */
  private async holdBackWithSlot(callback: CallbackRecord, campaign: CampaignRecord, now: number): Promise<JobOutcome | undefined> {
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
    const from = await this.fromNumbers.numberOf(caller, numbers[leadTurn(callback.id) % numbers.length]!);
    const placement = from
      ? await this.deps.calls.place(caller, {
          assistantId: campaign.settings.assistant_id,
          from,
          to: callback.phone,
          variables: callback.variables,
          metadata: callbackCallMetadata(callback),
          // Its campaign's call: counted in the campaign's progress and stats like a lead's.
          campaignId: campaign.id,
          idempotencyKey: `campaign-callback-${callback.id}`,
        })
      : ({ kind: 'refused', reason: 'the number the campaign calls from is no longer the workspace’s' } as const);
    const dialing = { statuses: ['dialing'] as const, attempts: callback.attempts };
    if (placement.kind !== 'placed') await this.releaseSlot(callback, campaign);
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

  private takeSlot(callback: CallbackRecord, campaign: CampaignRecord): Promise<boolean> {
    return this.deps.callSlots.acquire(callSlotGroup(campaign.workspaceId, campaign.id), callbackSlotHolder(callback.id), campaign.settings.pacing.max_concurrent);
  }

  private releaseSlot(callback: CallbackRecord, campaign: CampaignRecord): Promise<void> {
    return this.deps.callSlots.release(callSlotGroup(campaign.workspaceId, campaign.id), callbackSlotHolder(callback.id));
  }

  private caller(callback: CallbackRecord): WorkspaceCaller {
    return serviceCaller('campaigns-dialer', callback.workspaceId, newId());
  }

  private now(): string {
    return this.deps.now().toISOString();
  }
}
