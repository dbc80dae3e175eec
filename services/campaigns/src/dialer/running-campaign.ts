// The transitions out of `running` the dialer and the leads' changes make: completion (no lead left
// to call) and the pause of a run that met a reason (the wallet cannot hold a call). Both are one
// revision-checked write of a campaign still running the run that met the cause, retried on a
// conflict, with its event in the outbox in the same write.
import type { CampaignPausedReason } from '@voice/contracts/campaigns';
import type { NewOutboxEvent } from '@voice/runtime/events';
import { retryOnConflict } from '@voice/runtime/retry-on-conflict';
import { callableLeads } from '../domain/states.js';
import { campaignCompletedEvent } from '../events/campaign-completed.js';
import type { CampaignChanges, CampaignPart, CampaignRecord, LeadPart } from '../store/store.js';

export interface RunningCampaignDeps {
  store: Pick<CampaignPart, 'getCampaign' | 'updateCampaign'> & Pick<LeadPart, 'countLeads'>;
  now: () => Date;
  /** Asks the outbox relay to publish now (after an event committed). */
  wakeRelay: () => void;
}

/** What a running campaign becomes, with the events of the change; undefined to leave it running. */
type Transition = (campaign: CampaignRecord, at: string) => Promise<{ changes: CampaignChanges; events: NewOutboxEvent[] } | undefined>;

/**
 * Applies the transition to the campaign while it runs (the run `run` when given: stopped, paused or
 * started again since, the run that met the cause is over); answers whether this call changed it.
 */
async function transitionRunning(deps: RunningCampaignDeps, workspaceId: string, campaignId: string, run: string | undefined, transition: Transition): Promise<boolean> {
  const changed = await retryOnConflict(`transition of running campaign ${campaignId}`, async () => {
    const campaign = await deps.store.getCampaign(workspaceId, campaignId);
    if (!campaign || campaign.status !== 'running') return { done: false };
    if (run !== undefined && (campaign.startedAt === null || Date.parse(campaign.startedAt) !== Date.parse(run))) return { done: false };
    const at = deps.now().toISOString();
    const next = await transition(campaign, at);
    if (!next) return { done: false };
    const outcome = await deps.store.updateCampaign(workspaceId, campaignId, campaign.revision, next.changes, at, next.events);
    if (outcome.kind === 'revision_conflict') return undefined;
    return { done: outcome.kind === 'updated' };
  });
  if (changed) deps.wakeRelay();
  return changed;
}

/** Completes a running campaign with no lead left to call (none pending, calling or scheduled for a retry), with its CampaignCompleted event. */
export function completeIfDone(deps: RunningCampaignDeps, workspaceId: string, campaignId: string): Promise<boolean> {
  return transitionRunning(deps, workspaceId, campaignId, undefined, async (campaign, at) => {
    const counts = (await deps.store.countLeads(workspaceId, [campaignId])).get(campaignId)!;
    if (callableLeads(counts) > 0) return undefined;
    const changes = { status: 'completed', stoppedAt: at } as const;
    return { changes, events: [campaignCompletedEvent({ ...campaign, ...changes, revision: campaign.revision + 1, updatedAt: at }, counts, at)] };
  });
}

/**
 * Pauses the run (`started_at`) that met the reason instead of failing every lead left: dialling
 * stops until a start resumes it (a new run, its leads enqueued anew).
 */
export function pauseRun(deps: RunningCampaignDeps, workspaceId: string, campaignId: string, run: string, reason: CampaignPausedReason): Promise<boolean> {
  return transitionRunning(deps, workspaceId, campaignId, run, async () => ({ changes: { status: 'paused', pausedReason: reason }, events: [] }));
}
