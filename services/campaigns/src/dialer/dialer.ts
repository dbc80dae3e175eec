// Handles one dial job: at dial time the campaign must be running, the lead still due for this
// attempt and its calling window open, then the checks of every campaign call (dial-gate.ts: the
// person's line, which a callback of the lead ringing holds, a call slot, the suppression list, the
// calls per minute);
// then the lead is claimed by a conditional write (so a job handled twice dials once) and its call
// placed through the calls service, whose id is recorded on the lead. A call the wallet cannot fund
// gives the lead its attempt back and pauses the campaign.
import type { JsonObject } from '@bufbuild/protobuf';
import { serviceCaller, type WorkspaceCaller } from '@voice/runtime/caller';
import { jobDone, jobLater, type JobOutcome } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import type { Logger } from '@voice/runtime/logger';
import { windowOpensInMs } from '../domain/calling-window.js';
import { retryDueAt } from '../domain/lead-outcome.js';
import type { CampaignRecord, CampaignStore, LeadRecord } from '../store/store.js';
import { callSlotHolder } from './call-slots.js';
import { unfinishedAttempt, type DialJob } from './dial-job.js';
import { concurrencyRecheckMs, turnOf, type CampaignCall, type DialGate } from './dial-gate.js';
import { completeIfDone, pauseRun } from './running-campaign.js';

export interface DialerDeps {
  store: CampaignStore;
  /** The checks and the placement every campaign call shares with the callbacks' dialer. */
  gate: DialGate;
  now: () => Date;
  /** Asks the outbox relay to publish now (after a campaign completed). */
  wakeRelay: () => void;
  logger: Logger;
}

/** The metadata a campaign's call carries: how its end finds the lead again (and how GET /calls shows whose it is). */
export const campaignCallMetadata = (lead: LeadRecord, attempt: number): JsonObject => ({ campaign_id: lead.campaignId, lead_id: lead.id, attempt });

export class Dialer {
  constructor(private readonly deps: DialerDeps) {}

  async handle(job: DialJob): Promise<JobOutcome> {
    const { store } = this.deps;
    const [campaign, lead] = await Promise.all([store.getCampaign(job.workspace, job.campaign), store.getLead(job.workspace, job.lead)]);
    // A stopped (or deleted) campaign dials no more: starting it again enqueues its leads anew.
    if (!campaign || campaign.status !== 'running' || !lead || lead.campaignId !== campaign.id) return jobDone;
    // A job of an earlier run: the current run enqueued the lead again.
    if (campaign.startedAt === null || Date.parse(campaign.startedAt) !== Date.parse(job.run)) return jobDone;
    const caller: WorkspaceCaller = serviceCaller('campaigns-dialer', job.workspace, newId());
    const call: CampaignCall = { campaign, holder: callSlotHolder(lead.id, job.attempt), phone: lead.phone };
    const { gate } = this.deps;
    // Claimed by an earlier delivery of this job that did not get as far as recording its call: the
    // call's idempotency key makes placing it again answer the same call.
    const unfinished = unfinishedAttempt(lead) && lead.attempts === job.attempt;
    if (unfinished) {
      // Its dialer died while the window was open: not called once it has closed meanwhile.
      const closed = windowClosed(campaign, lead, this.deps.now().getTime());
      if (closed) return closed;
      // Its line and slot are still taken by this attempt, unless reclaimed meanwhile.
      if (!(await gate.retake(call))) return jobLater(concurrencyRecheckMs);
    } else {
      const due = (lead.status === 'pending' || lead.status === 'retry_scheduled') && lead.attempts === job.attempt - 1;
      if (!due) return jobDone;
      const held = await this.holdBack(caller, call, lead);
      if (held) return held;
      const claimed = await store.transitionLead(job.workspace, lead.id, { statuses: ['pending', 'retry_scheduled'], attempts: job.attempt - 1 }, { status: 'calling', attempts: job.attempt }, this.now());
      if (!claimed) {
        // Claimed by another job of this attempt (a redelivery, or the job enqueued again by a change of
        // the window), which holds the same line and slot and gives them back at its call's end.
        const now = await store.getLead(job.workspace, lead.id);
        if (!(now?.status === 'calling' && now.attempts === job.attempt)) await gate.release(call);
        return jobDone;
      }
    }
    await this.place(caller, call, lead, job.attempt);
    return jobDone;
  }

  /**
   * Why the lead is not called now: a later time to look again, or done (suppressed); undefined to
   * call it, with the person's line and the attempt's call slot taken.
   */
  private async holdBack(caller: WorkspaceCaller, call: CampaignCall, lead: LeadRecord): Promise<JobOutcome | undefined> {
    const { campaign } = call;
    const now = this.deps.now().getTime();
    if (lead.status === 'retry_scheduled') {
      const dueAt = retryDueAt(lead.updatedAt, campaign.settings.retry);
      if (dueAt > now) return jobLater(dueAt - now);
    }
    const closed = windowClosed(campaign, lead, now);
    if (closed) return closed;
    const clearance = await this.deps.gate.clear(caller, call, now);
    if (clearance === 'clear') return undefined;
    if (clearance !== 'suppressed') return clearance;
    // A number suppressed while the lead waited is not called.
    await this.deps.store.transitionLead(lead.workspaceId, lead.id, { statuses: [lead.status], attempts: lead.attempts }, { status: 'do_not_call' }, this.now());
    this.deps.logger.info('suppressed lead not dialled', { campaignId: campaign.id, leadId: lead.id });
    await completeIfDone(this.deps, lead.workspaceId, campaign.id);
    return jobDone;
  }

  private async place(caller: WorkspaceCaller, call: CampaignCall, lead: LeadRecord, attempt: number): Promise<void> {
    const { store, logger } = this.deps;
    const { campaign } = call;
    // The pool's numbers take turns by lead and attempt.
    const placement = await this.deps.gate.place(caller, call, turnOf(lead.id) + attempt - 1, {
      variables: lead.variables,
      metadata: campaignCallMetadata(lead, attempt),
      idempotencyKey: `campaign-dial-${lead.id}-${attempt}`,
    });
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
