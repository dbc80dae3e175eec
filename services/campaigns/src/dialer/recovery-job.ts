// The dialer's recovery: a periodic job (one replica at a time, on a lease) that enqueues again the
// leads of running campaigns whose job may have been lost. The queue drops the jobs it holds
// already (its duplicate window), so only lost ones are added. A run it has not seen under its current
// calling window (or not for a day) is swept whole: its start, or the re-enqueueing after a change of its
// window, may have stopped between its commit and its jobs, and a job waiting longer than the queue
// keeps jobs is gone. Otherwise a pass enqueues only the leads
// whose state says their job may be lost (possiblyLostLeadFilters): the pending leads the start
// enqueued are not published again every period.
import type { PeriodicJob } from '@voice/runtime/jobs';
import { dueTimesVersion } from '../domain/settings.js';
import type { CampaignPart, CampaignRecord, LeadPart } from '../store/store.js';
import type { DialQueue } from './dial-job.js';
import { callableLeadFilters, enqueueLeads, possiblyLostLeadFilters } from './enqueue-leads.js';

export const dialRecoveryPeriodMs = 5 * 60_000;

/** How often a run is swept whole: well within the queue's duplicate window and its jobs' age limit. */
const fullSweepEveryMs = 24 * 3600_000;

const campaignsPerPage = 100;

export function dialRecoveryJob(deps: { store: Pick<CampaignPart, 'listRunningCampaigns'> & Pick<LeadPart, 'listLeads'>; queue: DialQueue; periodMs?: number }): PeriodicJob {
  /** The runs (under a calling window) this replica swept whole, and when (epoch ms). */
  const swept = new Map<string, number>();
  const runOf = (campaign: CampaignRecord) => `${campaign.id}:${campaign.startedAt}:${dueTimesVersion(campaign.settings)}`;
  return {
    name: 'campaigns.dial-recovery',
    periodMs: deps.periodMs ?? dialRecoveryPeriodMs,
    // One run enqueues everything lost; there is no batch to follow at once.
    batchSize: Number.MAX_SAFE_INTEGER,
    run: async ({ signal, now }) => {
      let enqueued = 0;
      const seen = new Set<string>();
      let complete = false;
      for (let offset = 0; !signal.aborted; offset += campaignsPerPage) {
        const campaigns = await deps.store.listRunningCampaigns({ limit: campaignsPerPage, offset });
        for (const campaign of campaigns) {
          const run = runOf(campaign);
          seen.add(run);
          const sweptAt = swept.get(run);
          const whole = sweptAt === undefined || now.getTime() - sweptAt >= fullSweepEveryMs;
          enqueued += await enqueueLeads(deps.store, deps.queue, campaign, whole ? callableLeadFilters(campaign) : possiblyLostLeadFilters(campaign));
          if (whole) swept.set(run, now.getTime());
        }
        if (campaigns.length < campaignsPerPage) {
          complete = true;
          break;
        }
      }
      // Runs that ended are forgotten (only after a pass that saw every running campaign).
      if (complete) for (const run of swept.keys()) if (!seen.has(run)) swept.delete(run);
      return enqueued;
    },
  };
}
