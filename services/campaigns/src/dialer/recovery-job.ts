// The dialer's recovery: a periodic job (one replica at a time, on a lease) that enqueues again the
// callable leads of every running campaign. The queue drops the jobs it holds already, so only the
// lost ones are added: a start that stopped between its commit and its jobs, a retry whose job was
// not enqueued after its lead settled, a lead claimed by a dialer that died before placing its call.
import type { PeriodicJob } from '@voice/runtime/jobs';
import type { CampaignPart, LeadPart } from '../store/store.js';
import type { DialQueue } from './dial-job.js';
import { enqueueCallableLeads } from './enqueue-leads.js';

export const dialRecoveryPeriodMs = 5 * 60_000;

const campaignsPerPage = 100;

export function dialRecoveryJob(deps: { store: Pick<CampaignPart, 'listRunningCampaigns'> & Pick<LeadPart, 'listLeads'>; queue: DialQueue; periodMs?: number }): PeriodicJob {
  return {
    name: 'campaigns.dial-recovery',
    periodMs: deps.periodMs ?? dialRecoveryPeriodMs,
    // One run enqueues everything lost; there is no batch to follow at once.
    batchSize: Number.MAX_SAFE_INTEGER,
    run: async ({ signal }) => {
      let enqueued = 0;
      for (let offset = 0; !signal.aborted; offset += campaignsPerPage) {
        const campaigns = await deps.store.listRunningCampaigns({ limit: campaignsPerPage, offset });
        for (const campaign of campaigns) enqueued += await enqueueCallableLeads(deps.store, deps.queue, campaign);
        if (campaigns.length < campaignsPerPage) break;
      }
      return enqueued;
    },
  };
}
