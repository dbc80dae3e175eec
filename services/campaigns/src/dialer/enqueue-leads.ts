// Puts a running campaign's leads on the dial queue: at start (and when its window changes mid-run)
// all its callable ones (pending, retry_scheduled, and calling ones whose call was never recorded); in
// the recovery's passes only those whose job may have been lost.
import type { LeadStatus } from '@voice/contracts/campaigns';
import { forEachConcurrently } from '@voice/runtime/events';
import type { CampaignPart, CampaignRecord, LeadFilter, LeadPart, LeadRecord } from '../store/store.js';
import { enqueueNextAttempt, unfinishedAttempt, type DialQueue } from './dial-job.js';

const pageSize = 1_000;
/** Publishes awaiting the stream's acknowledgement at once: a start of 10,000 leads is not 10,000 round trips one after another. */
const enqueuesInFlight = 64;
const callableStatuses: readonly LeadStatus[] = ['pending', 'retry_scheduled', 'calling'];

type Run = Pick<CampaignRecord, 'workspaceId' | 'id' | 'startedAt' | 'settings'>;

/** Every lead of the campaign that may still be called in this run. */
export const callableLeadFilters = (campaign: Run): LeadFilter[] => callableStatuses.map((status) => ({ campaignId: campaign.id, status }));

/**
 * The leads of a run whose job may be lost although its start enqueued them all: a retry whose job
 * was not enqueued after its lead settled, a lead claimed by a dialer that died before its call,
 * and a lead added while the campaign runs whose job was lost after its insert.
 */
export const possiblyLostLeadFilters = (campaign: Run): LeadFilter[] => [
  { campaignId: campaign.id, status: 'retry_scheduled' },
  { campaignId: campaign.id, status: 'calling' },
  { campaignId: campaign.id, status: 'pending', segment: { created_after: campaign.startedAt! } },
];

/** Enqueues the next attempt of the leads the filters match (calling ones only when their call was never recorded); answers how many jobs were new to the queue. */
export async function enqueueLeads(store: Pick<LeadPart, 'listLeads'>, queue: DialQueue, campaign: Run, filters: readonly LeadFilter[]): Promise<number> {
  const { workspaceId, id: campaignId } = campaign;
  if (!campaign.startedAt) throw new Error(`campaign ${campaignId} has never started`);
  // Every page is read before the first job is enqueued: the dialer moves leads out of these
  // statuses as it takes jobs, which would shift the later pages under an offset.
  const leads: LeadRecord[] = [];
  for (const filter of filters) {
    for (let offset = 0; ; offset += pageSize) {
      const page = await store.listLeads(workspaceId, filter, { limit: pageSize, offset });
      leads.push(...page.leads.filter((lead) => lead.status !== 'calling' || unfinishedAttempt(lead)));
      if (offset + pageSize >= page.total) break;
    }
  }
  let added = 0;
  await forEachConcurrently(leads, enqueuesInFlight, async (lead) => {
    const { duplicate } = await enqueueNextAttempt(queue, lead, campaign);
    if (!duplicate) added += 1;
  });
  return added;
}

/** Enqueues all the campaign's callable leads (its start, a change of when they are due). */
export const enqueueCallableLeads = (store: Pick<LeadPart, 'listLeads'>, queue: DialQueue, campaign: Run): Promise<number> =>
  enqueueLeads(store, queue, campaign, callableLeadFilters(campaign));

/** Enqueues leads just added to a campaign in its current run, if it runs: its start enqueued only the leads it found. */
export async function enqueueAddedLeads(store: Pick<CampaignPart, 'getCampaign'>, queue: DialQueue, workspaceId: string, campaignId: string, leads: readonly LeadRecord[]): Promise<void> {
  if (leads.length === 0) return;
  // Read after the insert: a start that committed before it either listed these leads or is seen running here.
  const campaign = await store.getCampaign(workspaceId, campaignId);
  if (campaign?.status !== 'running' || !campaign.startedAt) return;
  await forEachConcurrently(leads, enqueuesInFlight, async (lead) => {
    await enqueueNextAttempt(queue, lead, campaign);
  });
}
