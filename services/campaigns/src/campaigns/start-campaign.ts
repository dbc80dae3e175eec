// Starting a campaign, the one way: `POST /campaigns/{id}/start` and the schedule's occurrences both
// run it. A targeted segment's leads are copied in first; then the refusals of the state machine
// (running already, no lead left to call: `conflict`), the revision-checked move to running, and,
// after the commit, its callable leads on the dial queue.
import { notFound, serviceError } from '@voice/runtime/errors';
import { newId } from '@voice/runtime/ids';
import { retryOnConflict } from '@voice/runtime/retry-on-conflict';
import { storedFilter } from '../domain/segment-filter.js';
import { alreadyRunning, startRefusal } from '../domain/states.js';
import type { DialQueue } from '../dialer/dial-job.js';
import { enqueueCallableLeads } from '../dialer/enqueue-leads.js';
import type { CampaignRecord, CampaignStore, LeadCounts } from '../store/store.js';

export interface StartDeps {
  store: CampaignStore;
  dialQueue: DialQueue;
  now(): Date;
}

/** Starts the workspace's campaign; throws `not_found` or `conflict` (with the state machine's reason). */
export async function startCampaign(deps: StartDeps, workspaceId: string, id: string): Promise<{ campaign: CampaignRecord; counts: LeadCounts }> {
  const { store } = deps;
  const started = await retryOnConflict(`start of campaign ${id}`, async () => {
    const campaign = await store.getCampaign(workspaceId, id);
    if (!campaign) throw notFound('campaign');
    if (campaign.status === 'running') throw serviceError('conflict', alreadyRunning);
    const now = deps.now().toISOString();
    if (campaign.settings.segment_id) {
      // A segment's leads join the campaign when it starts: the filter as it is now decides whom it calls.
      const segment = await store.getSegment(workspaceId, campaign.settings.segment_id);
      if (segment) await store.copySegmentLeads(workspaceId, campaign.id, storedFilter(segment.filter), newId, now);
    }
    const counts = (await store.countLeads(workspaceId, [campaign.id])).get(campaign.id)!;
    const refusal = startRefusal(campaign.status, counts);
    if (refusal) throw serviceError('conflict', refusal);
    const outcome = await store.updateCampaign(workspaceId, campaign.id, campaign.revision, { status: 'running', pausedReason: null, startedAt: now }, now);
    if (outcome.kind === 'not_found') throw notFound('campaign');
    return outcome.kind === 'updated' ? { done: { campaign: outcome.record, counts } } : undefined;
  });
  // Enqueued after the commit: a lead whose job is lost here is enqueued again by the dialer's recovery or the next start.
  await enqueueCallableLeads(store, deps.dialQueue, started.campaign);
  return started;
}
