// A running campaign with no lead left to call (none pending, calling or scheduled for a retry) is completed.
import { retryOnConflict } from '@voice/runtime/retry-on-conflict';
import { callableLeads } from '../domain/states.js';
import type { CampaignPart, LeadPart } from '../store/store.js';

export async function completeIfDone(store: Pick<CampaignPart, 'getCampaign' | 'updateCampaign'> & Pick<LeadPart, 'countLeads'>, workspaceId: string, campaignId: string, now: () => Date): Promise<boolean> {
  return retryOnConflict(`completion of campaign ${campaignId}`, async () => {
    const campaign = await store.getCampaign(workspaceId, campaignId);
    if (!campaign || campaign.status !== 'running') return { done: false };
    const counts = (await store.countLeads(workspaceId, [campaignId])).get(campaignId)!;
    if (callableLeads(counts) > 0) return { done: false };
    const at = now().toISOString();
    const outcome = await store.updateCampaign(workspaceId, campaignId, campaign.revision, { status: 'completed', stoppedAt: at }, at);
    if (outcome.kind === 'revision_conflict') return undefined;
    return { done: outcome.kind === 'updated' };
  });
}
