// Handles one dial job: at dial time the campaign must be running, the lead still due for this
// attempt, its calling window open, a call slot of the campaign free (its max_concurrent, across
// replicas), the number not suppressed and the campaign under its calls per minute;
// then the lead is claimed by a conditional write (so a job handled twice dials once) and its call
// placed through the calls service, whose id is recorded on the lead. A call the wallet cannot fund
// gives the lead its attempt back and pauses the campaign.
import type { JsonObject } from '@bufbuild/protobuf';
import { serviceCaller, type WorkspaceCaller } from '@voice/runtime/caller';
import { windowLimit, type WindowCounter } from '@voice/runtime/counters';
import { jobDone, jobLater, type JobOutcome } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import type { Logger } from '@voice/runtime/logger';
import { windowOpensInMs } from '../domain/calling-window.js';
import { retryDueAt } from '../domain/lead-outcome.js';
import type { CampaignPeers } from '../peers/peers.js';
import type { CampaignRecord, CampaignStore, LeadRecord } from '../store/store.js';
import type { CallPlacer } from './call-placer.js';
import { callSlotGroup, callSlotHolder, type CallSlots } from './call-slots.js';
import { unfinishedAttempt, type DialJob } from './dial-job.js';
import { FromNumbers } from './from-numbers.js';
import { completeIfDone, pauseRun } from './running-campaign.js';

/** How soon a job held back by the campaign's concurrency looks again: a call slot frees when a call ends. */
export const concurrencyRecheckMs = 1_000;

export interface DialerDeps {
  store: CampaignStore;
  peers: Pick<CampaignPeers, 'suppressedAmong' | 'numberOf'>;
  calls: CallPlacer;
  /** Calls started per campaign in the current minute, counted across the dialer's replicas. */
  dialRates: WindowCounter;
  /** Calls in progress per campaign, counted across the dialer's replicas. */
  callSlots: CallSlots;
  now: () => Date;
  /** Asks the outbox relay to publish now (after a campaign completed). */
  wakeRelay: () => void;
  logger: Logger;
}

/** The metadata a campaign's call carries: how its end finds the lead again (and how GET /calls shows whose it is). */
export const campaignCallMetadata = (lead: LeadRecord, attempt: number): JsonObject => ({ campaign_id: lead.campaignId, lead_id: lead.id, attempt });

export class Dialer {
  private readonly fromNumbers: FromNumbers;

  constructor(private readonly deps: DialerDeps) {
    this.fromNumbers = new FromNumbers(deps.peers);
  }

  async handle(job: DialJob): Promise<JobOutcome> {
    const { store } = this.deps;
    const [campaign, lead] = await Promise.all([store.getCampaign(job.workspace, job.campaign), store.getLead(job.workspace, job.lead)]);
    // A stopped (or deleted) campaign dials no more: starting it again enqueues its leads anew.
    if (!campaign || campaign.status !== 'running' || !lead || lead.campaignId !== campaign.id) return jobDone;
    // A job of an earlier run: the current run enqueued the lead again.
    if (campaign.startedAt === null || Date.parse(campaign.startedAt) !== Date.parse(job.run)) return jobDone;
    const caller: WorkspaceCaller = serviceCaller('campaigns-dialer', job.workspace, newId());
    // Claimed by an earlier delivery of this job that did not get as far as recording its call: the
    // call's idempotency key makes placing it again answer the same call.
    const unfinished = unfinishedAttempt(lead) && lead.attempts === job.attempt;
    if (unfinished) {
      // Its dialer died while the window was open: not called once it has closed meanwhile.
      const closed = windowClosed(campaign, lead, this.deps.now().getTime());
      if (closed) return closed;
      // Its slot is still taken by this attempt, unless reclaimed meanwhile.
      if (!(await this.takeSlot(campaign, lead.id, job.attempt))) return jobLater(concurrencyRecheckMs);
    } else {
      const due = (lead.status === 'pending' || lead.status === 'retry_scheduled') && lead.attempts === job.attempt - 1;
      if (!due) return jobDone;
      const held = await this.holdBack(caller, campaign, lead, job.attempt);
      if (held) return held;
      const claimed = await store.transitionLead(job.workspace, lead.id, { statuses: ['pending', 'retry_scheduled'], attempts: job.attempt - 1 }, { status: 'calling', attempts: job.attempt }, this.now());
      if (!claimed) {
        await this.releaseSlot(campaign, lead.id, job.attempt);
        return jobDone;
      }
    }
    await this.place(caller, campaign, lead, job.attempt);
    return jobDone;
  }

  private takeSlot(campaign: CampaignRecord, leadId: string, attempt: number): Promise<boolean> {
    return this.deps.callSlots.acquire(callSlotGroup(campaign.workspaceId, campaign.id), callSlotHolder(leadId, attempt), campaign.settings.pacing.max_concurrent);
  }

  private releaseSlot(campaign: CampaignRecord, leadId: string, attempt: number): Promise<void> {
    return this.deps.callSlots.release(callSlotGroup(campaign.workspaceId, campaign.id), callSlotHolder(leadId, attempt));
  }

  /**
   * Why the lead is not called now: a later time to look again, or done (suppressed); undefined to
   * call it, with the attempt's call slot taken.
   */
  private async holdBack(caller: WorkspaceCaller, campaign: CampaignRecord, lead: LeadRecord, attempt: number): Promise<JobOutcome | undefined> {
    const now = this.deps.now().getTime();
    if (lead.status === 'retry_scheduled') {
      const dueAt = retryDueAt(lead.updatedAt, campaign.settings.retry);
      if (dueAt > now) return jobLater(dueAt - now);
    }
    const closed = windowClosed(campaign, lead, now);
    if (closed) return closed;
    if (!(await this.takeSlot(campaign, lead.id, attempt))) return jobLater(concurrencyRecheckMs);
    const held = await this.holdBackWithSlot(caller, campaign, lead, now);
    if (held) await this.releaseSlot(campaign, lead.id, attempt);
    return held;
  }

  /** The checks made while the call's slot is taken: as close to the dial as they get. */
  private async holdBackWithSlot(caller: WorkspaceCaller, campaign: CampaignRecord, lead: LeadRecord, now: number): Promise<JobOutcome | undefined> {
    const { store } = this.deps;
    // A number suppressed while the lead waited is not called.
    if ((await this.deps.peers.suppressedAmong(caller, [lead.phone])).has(lead.phone)) {
      await store.transitionLead(lead.workspaceId, lead.id, { statuses: [lead.status], attempts: lead.attempts }, { status: 'do_not_call' }, this.now());
      this.deps.logger.info('suppressed lead not dialled', { campaignId: campaign.id, leadId: lead.id });
      await completeIfDone(this.deps, lead.workspaceId, campaign.id);
      return jobDone;
    }
    const started = windowLimit(await this.deps.dialRates.hit(callSlotGroup(campaign.workspaceId, campaign.id)), campaign.settings.pacing.calls_per_minute, now);
    if (started.limited) return jobLater(started.limitedUntil - now);
    return undefined;
  }

  private async place(caller: WorkspaceCaller, campaign: CampaignRecord, lead: LeadRecord, attempt: number): Promise<void> {
    const { store, logger } = this.deps;
    const numbers = campaign.settings.from_number_ids;
    // The pool's numbers take turns by lead and attempt.
    const fromId = numbers[(leadTurn(lead.id) + attempt - 1) % numbers.length]!;
    const from = await this.fromNumbers.numberOf(caller, fromId);
    const placement = from
      ? await this.deps.calls.place(caller, {
          assistantId: campaign.settings.assistant_id,
          from,
          to: lead.phone,
          variables: lead.variables,
          metadata: campaignCallMetadata(lead, attempt),
          campaignId: campaign.id,
          idempotencyKey: `campaign-dial-${lead.id}-${attempt}`,
        })
      : ({ kind: 'refused', reason: 'the number the campaign calls from is no longer the workspace’s' } as const);
    if (placement.kind !== 'placed') await this.releaseSlot(campaign, lead.id, attempt);
    if (placement.kind === 'unfunded') {
      // Not the lead's fault: it waits, its attempt unspent, for the start that follows new funds.
      await store.transitionLead(lead.workspaceId, lead.id, { statuses: ['calling'], attempts: attempt }, { status: 'pending', attempts: attempt - 1 }, this.now());
      const paused = await pauseRun(this.deps, lead.workspaceId, campaign.id, campaign.startedAt!, 'insufficient_funds');
      if (paused) logger.warn('campaign paused: the wallet cannot fund a call', { campaignId: campaign.id, leadId: lead.id, attempt, reason: placement.reason });
      return;
    }
    if (placement.kind === 'refused') {
      logger.warn('campaign call refused; the lead failed', { campaignId: campaign.id, leadId: lead.id, attempt, reason: placement.reason });
      await store.transitionLead(lead.workspaceId, lead.id, { statuses: ['calling'], attempts: attempt }, { status: 'failed' }, this.now());
      await completeIfDone(this.deps, lead.workspaceId, campaign.id);
      return;
    }
    // Recorded only while the lead is still calling: a call that already ended recorded itself with its outcome.
    await store.transitionLead(lead.workspaceId, lead.id, { statuses: ['calling'], attempts: attempt }, { status: 'calling', addCallId: placement.callId }, this.now());
  }

  private now(): string {
    return this.deps.now().toISOString();
  }
}

/** When the lead's calling window is closed: the job again when it opens. */
function windowClosed(campaign: CampaignRecord, lead: LeadRecord, now: number): JobOutcome | undefined {
  const opensIn = windowOpensInMs(campaign.settings.window, lead.timeZone, now);
  return opensIn > 0 ? jobLater(opensIn) : undefined;
}

/** A stable small number per lead, so its first attempt's number differs from lead to lead. */
function leadTurn(leadId: string): number {
  let sum = 0;
  for (const char of leadId) sum = (sum * 31 + char.charCodeAt(0)) % 1_000_003;
  return sum;
}
