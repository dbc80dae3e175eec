// Puts a running campaign's callable leads on the dial queue (pending, retry_scheduled, and calling
// ones whose call was never recorded): at start, and again whenever a lead's job may have been lost.
import type { LeadStatus } from '@voice/contracts/campaigns';
import type { CampaignRecord, LeadPart, LeadRecord } from '../store/store.js';
import { enqueueNextAttempt, unfinishedAttempt, type DialQueue } from './dial-job.js';

const pageSize = 1_000;
const enqueuedStatuses: readonly LeadStatus[] = ['pending', 'retry_scheduled', 'calling'];

/** Answers how many jobs were new to the queue. */
export async function enqueueCallableLeads(store: Pick<LeadPart, 'listLeads'>, queue: DialQueue, campaign: Pick<CampaignRecord, 'workspaceId' | 'id' | 'startedAt'>): Promise<number> {
  const { workspaceId, id: campaignId, startedAt } = campaign;
  if (!startedAt) throw new Error(`campaign ${campaignId} has never started`);
  // Every page is read before the first job is enqueued: the dialer moves leads out of these
  // statuses as it takes jobs, which would shift the later pages under an offset.
  const leads: LeadRecord[] = [];
  for (const status of enqueuedStatuses) {
    for (let offset = 0; ; offset += pageSize) {
      const page = await store.listLeads(workspaceId, { campaignId, status }, { limit: pageSize, offset });
      leads.push(...page.leads.filter((lead) => lead.status !== 'calling' || unfinishedAttempt(lead)));
      if (offset + pageSize >= page.total) break;
    }
  }
  let added = 0;
  for (const lead of leads) {
    const { duplicate } = await enqueueNextAttempt(queue, lead, startedAt);
    if (!duplicate) added += 1;
  }
  return added;
}
