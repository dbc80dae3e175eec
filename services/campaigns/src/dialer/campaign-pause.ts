// A running campaign whose wallet cannot hold a call is paused, with the reason, instead of failing
// every lead left: dialling stops until a start resumes it (a new run, its leads enqueued anew).
import type { CampaignPausedReason } from '@voice/contracts/campaigns';
import { retryOnConflict } from '@voice/runtime/retry-on-conflict';
import type { CampaignPart } from '../store/store.js';

/** Pauses the campaign while it is still running the run (`started_at`) that met the reason; answers whether this call paused it. */
export async function pauseCampaign(
  store: Pick<CampaignPart, 'getCampaign' | 'updateCampaign'>,
  workspaceId: string,
  campaignId: string,
  run: string,
  reason: CampaignPausedReason,
  now: () => Date,
): Promise<boolean> {
  return retryOnConflict(`pause of campaign ${campaignId}`, async () => {
    const campaign = await store.getCampaign(workspaceId, campaignId);
    // Stopped, paused already, or started again since: the run that met the reason is over.
    if (!campaign || campaign.status !== 'running' || campaign.startedAt === null || Date.parse(campaign.startedAt) !== Date.parse(run)) return { done: false };
    const outcome = await store.updateCampaign(workspaceId, campaignId, campaign.revision, { status: 'paused', pausedReason: reason }, now().toISOString());
    if (outcome.kind === 'revision_conflict') return undefined;
    return { done: outcome.kind === 'updated' };
  });
}
