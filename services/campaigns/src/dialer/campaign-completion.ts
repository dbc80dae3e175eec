// A running campaign with no lead left to call (none pending, calling or scheduled for a retry) is
// completed, and its CampaignCompleted event enters the outbox in the same write.
import { retryOnConflict } from '@voice/runtime/retry-on-conflict';
import { callableLeads } from '../domain/states.js';
import { campaignCompletedEvent } from '../events/campaign-completed.js';
import type { CampaignPart, LeadPart } from '../store/store.js';

export interface CompletionDeps {
  store: Pick<CampaignPart, 'getCampaign' | 'updateCampaign'> & Pick<LeadPart, 'countLeads'>;
  now: () => Date;
  /** Asks the outbox relay to publish now (after a completion committed). */
  wakeRelay: () => void;
}

export async function completeIfDone({ store, now, wakeRelay }: CompletionDeps, workspaceId: string, campaignId: string): Promise<boolean> {
  const completed = await retryOnConflict(`completion of campaign ${campaignId}`, async () => {
    const campaign = await store.getCampaign(workspaceId, campaignId);
    if (!campaign || campaign.status !== 'running') return { done: false };
    const counts = (await store.countLeads(workspaceId, [campaignId])).get(campaignId)!;
    if (callableLeads(counts) > 0) return { done: false };
    const at = now().toISOString();
    const changes = { status: 'completed', stoppedAt: at } as const;
    const event = campaignCompletedEvent({ ...campaign, ...changes, revision: campaign.revision + 1, updatedAt: at }, counts, at);
    const outcome = await store.updateCampaign(workspaceId, campaignId, campaign.revision, changes, at, [event]);
    if (outcome.kind === 'revision_conflict') return undefined;
    return { done: outcome.kind === 'updated' };
  });
  if (completed) wakeRelay();
  return completed;
}
