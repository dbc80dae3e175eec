// A campaign's calls in progress, counted across the dialer's replicas: a slot per call (runtime
// ConcurrencySlots, NATS KV `voice_campaign_call_slots`), at most the campaign's max_concurrent. A
// dial takes its lead attempt's slot before it claims the lead; the call's end (or the placement's
// refusal) gives it back. A slot whose dialer died between taking it and placing the call is
// reclaimed once its lead is no longer calling for that attempt.
import type { CommonConfig } from '@voice/runtime/config';
import { campaignCallSlotsBucket, openConcurrencySlots, type ConcurrencySlots } from '@voice/runtime/counters';
import type { DialerPart } from '../store/store.js';

export type CallSlots = Pick<ConcurrencySlots, 'acquire' | 'release'>;

/** The slots' group of a campaign. */
export const callSlotGroup = (workspaceId: string, campaignId: string): string => `${workspaceId}.${campaignId}`;

/** The holder of one call attempt of a lead: a job handled twice takes one slot. */
export const callSlotHolder = (leadId: string, attempt: number): string => `${leadId}:${attempt}`;

export function openCallSlots(common: Pick<CommonConfig, 'natsUrl' | 'eventNamespace' | 'natsReplicas'>, store: Pick<DialerPart, 'getLead'>): Promise<ConcurrencySlots> {
  return openConcurrencySlots(common, campaignCallSlotsBucket, {
    // The attempt's call is placed or about to be while its lead is calling for it; its end releases the slot.
    stillHeld: async (group, holder) => {
      const workspaceId = group.slice(0, group.indexOf('.'));
      const separator = holder.lastIndexOf(':');
      const lead = await store.getLead(workspaceId, holder.slice(0, separator));
      return lead?.status === 'calling' && lead.attempts === Number(holder.slice(separator + 1));
    },
  });
}
