// A campaign's pacing as every dial counts it, a lead's or a callback's: the calls in progress (leads
// calling and callbacks dialling) against max_concurrent, and calls started per minute against
// calls_per_minute on one counter per campaign shared by the dialer's replicas.
import { windowLimit, type WindowCounter } from '@voice/runtime/counters';
import type { CampaignRecord, CampaignStore } from '../store/store.js';

/** How soon a dial held back by the campaign's concurrency looks again: a call slot frees when a call ends. */
export const concurrencyRecheckMs = 1_000;

export async function callsInProgress(store: Pick<CampaignStore, 'countLeads' | 'callbacks'>, campaign: Pick<CampaignRecord, 'workspaceId' | 'id'>): Promise<number> {
  const [counts, dialing] = await Promise.all([store.countLeads(campaign.workspaceId, [campaign.id]), store.callbacks.countDialingCallbacks(campaign.workspaceId, campaign.id)]);
  return counts.get(campaign.id)!.calling + dialing;
}

/** Counts a call about to start; answers how long to wait when the campaign is over its calls per minute, else 0. */
export async function rateWaitMs(dialRates: WindowCounter, campaign: Pick<CampaignRecord, 'workspaceId' | 'id' | 'settings'>, now: number): Promise<number> {
  const started = windowLimit(await dialRates.hit(`${campaign.workspaceId}.${campaign.id}`), campaign.settings.pacing.calls_per_minute, now);
  return started.limited ? started.limitedUntil - now : 0;
}
