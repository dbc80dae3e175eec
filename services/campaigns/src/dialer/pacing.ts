// A campaign's calls per minute as every dial counts it, a lead's or a callback's: one window counter
// per campaign shared by the dialer's replicas (its calls in progress are its call slots, call-slots.ts).
import { windowLimit, type WindowCounter } from '@voice/runtime/counters';
import type { CampaignRecord } from '../store/store.js';
import { callSlotGroup } from './call-slots.js';

/** Counts a call about to start; answers how long to wait when the campaign is over its calls per minute, else 0. */
export async function rateWaitMs(dialRates: WindowCounter, campaign: Pick<CampaignRecord, 'workspaceId' | 'id' | 'settings'>, now: number): Promise<number> {
  const started = windowLimit(await dialRates.hit(callSlotGroup(campaign.workspaceId, campaign.id)), campaign.settings.pacing.calls_per_minute, now);
  return started.limited ? started.limitedUntil - now : 0;
}
