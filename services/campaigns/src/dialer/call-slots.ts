// A campaign's calls in progress, counted across the dialer's replicas: a slot per call (runtime
// ConcurrencySlots, NATS KV `voice_campaign_call_slots`), at most the campaign's max_concurrent. A
// dial takes its lead attempt's slot before it claims the lead; the call's end (or the placement's
// refusal) gives it back. A slot whose dialer died between taking it and placing the call is
// reclaimed once its lead is no longer calling for that attempt. A callback's call takes a slot of its
// campaign too (callbackSlotHolder), until its end. Every call also holds the line of the person it
// calls (lineGroup: one per number of the workspace, a limit of 1, in the same bucket), so a lead's
// own dial and its callback never ring the person at once, on any replica.
import type { CommonConfig } from '@voice/runtime/config';
import { campaignCallSlotsBucket, openConcurrencySlots, type ConcurrencySlots } from '@voice/runtime/counters';
import type { CampaignStore, DialerPart } from '../store/store.js';

export type CallSlots = Pick<ConcurrencySlots, 'acquire' | 'release'>;

/** The slots' group of a campaign. */
export const callSlotGroup = (workspaceId: string, campaignId: string): string => `${workspaceId}.${campaignId}`;

/**
 * The line of a person, the number a campaign call rings: one call at a time whichever dialer places
 * it (a lead's own, a callback's, another campaign's of the workspace). A number is the person a
 * callback without a lead names too, so the line is the number's, not the lead's.
 */
export const lineGroup = (workspaceId: string, phone: string): string => `${workspaceId}.line.${phone}`;

/** What a campaign call holds until it ends: its campaign's slot and its person's line, both under its holder. */
export interface CallHolds {
  workspaceId: string;
  campaignId: string;
  holder: string;
  phone: string;
}

/** Gives back the call's slot and line (the call ended, or was never placed); nothing it does not hold. */
export async function releaseCall(slots: CallSlots, call: CallHolds): Promise<void> {
  await slots.release(callSlotGroup(call.workspaceId, call.campaignId), call.holder);
  await slots.release(lineGroup(call.workspaceId, call.phone), call.holder);
}

/** The holder of one call attempt of a lead: a job handled twice takes one slot. */
export const callSlotHolder = (leadId: string, attempt: number): string => `${leadId}:${attempt}`;

const callbackHolderPrefix = 'callback:';

/** The holder of a callback's call (a lead id is a UUID, so the prefix tells the two apart). */
export const callbackSlotHolder = (callbackId: string): string => `${callbackHolderPrefix}${callbackId}`;

export function openCallSlots(common: Pick<CommonConfig, 'natsUrl' | 'eventNamespace' | 'natsReplicas'>, store: Pick<DialerPart, 'getLead'> & Pick<CampaignStore, 'callbacks'>): Promise<ConcurrencySlots> {
  return openConcurrencySlots(common, campaignCallSlotsBucket, {
    // The attempt's call is placed or about to be while its lead is calling for it (a callback's while
    // it is dialing); its end releases the slot.
    stillHeld: async (group, holder) => {
      const workspaceId = group.slice(0, group.indexOf('.'));
      if (holder.startsWith(callbackHolderPrefix)) {
        return (await store.callbacks.getCallback(workspaceId, holder.slice(callbackHolderPrefix.length)))?.status === 'dialing';
      }
      const separator = holder.lastIndexOf(':');
      const lead = await store.getLead(workspaceId, holder.slice(0, separator));
      return lead?.status === 'calling' && lead.attempts === Number(holder.slice(separator + 1));
    },
  });
}
