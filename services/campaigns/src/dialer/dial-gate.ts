// What every call of a campaign passes at dial time, a lead's (dialer.ts) or a callback's
// (callback-dialer.ts), so that both count against the same pacing and meet the same checks: the
// person's line (one call at a time to a number, across replicas: a lead's dial and its callback
// both take it before their claim, so neither can claim between the other's check and its call),
// a call slot of the campaign (its max_concurrent, across replicas), then, with both taken and as
// close to the dial as they get, the number not suppressed and the campaign under its calls per
// minute; then the call placed from one of the campaign's numbers (taking turns), its line and slot
// given back unless a call was placed (the call's end gives them back then). What a refusal does to
// the lead or the callback is its dialer's.
import type { JsonObject } from '@bufbuild/protobuf';
import type { WorkspaceCaller } from '@voice/runtime/caller';
import type { WindowCounter } from '@voice/runtime/counters';
import { jobLater, type JobOutcome } from '@voice/runtime/events';
import type { CampaignPeers } from '../peers/peers.js';
import type { CampaignRecord } from '../store/store.js';
import type { CallPlacer, Placement } from '../peers/campaign-calls.js';
import { callSlotGroup, lineGroup, releaseCall, type CallSlots } from './call-slots.js';
import type { FromNumbers } from './from-numbers.js';
import { rateWaitMs } from './pacing.js';

/** How soon a job held back by the campaign's concurrency looks again: a call slot frees when a call ends. */
export const concurrencyRecheckMs = 1_000;

export interface DialGateDeps {
  peers: Pick<CampaignPeers, 'suppressedAmong'>;
  /** The from-numbers' E.164, one cache for every dial of the dialer. */
  fromNumbers: FromNumbers;
  calls: CallPlacer;
  /** Calls started per campaign in the current minute, counted across the dialer's replicas. */
  dialRates: WindowCounter;
  /** Calls in progress per campaign, and the line of each person called, counted across the dialer's replicas. */
  callSlots: CallSlots;
}

/** One call of a campaign: the holder of its call slot (callSlotHolder, callbackSlotHolder) and the number it calls. */
export interface CampaignCall {
  campaign: CampaignRecord;
  holder: string;
  phone: string;
}

/** What the call carries beyond the campaign's assistant and numbers. */
export type CallDetails = { variables: JsonObject; metadata: JsonObject; idempotencyKey: string };

export class DialGate {
  constructor(private readonly deps: DialGateDeps) {}

  /**
   * Takes again the line and slot of a call claimed by a dialer that stopped before recording it: they
   * are still its own unless reclaimed meanwhile; on a refusal it keeps what it has (its claim holds them).
   */
  async retake(call: CampaignCall): Promise<boolean> {
    const { campaign, holder } = call;
    if (!(await this.deps.callSlots.acquire(lineGroup(campaign.workspaceId, call.phone), holder, 1))) return false;
    return this.deps.callSlots.acquire(callSlotGroup(campaign.workspaceId, campaign.id), holder, campaign.settings.pacing.max_concurrent);
  }

  /** Gives back the call's line and slot. */
  release({ campaign, holder, phone }: CampaignCall): Promise<void> {
    return releaseCall(this.deps.callSlots, { workspaceId: campaign.workspaceId, campaignId: campaign.id, holder, phone });
  }

  /**
   * Takes the person's line and the call's slot and asks the checks made with them: `clear` keeps both
   * for the call; `suppressed` (the number was suppressed while it waited) and a later time to look
   * again give them back.
   */
  async clear(caller: WorkspaceCaller, call: CampaignCall, now: number): Promise<'clear' | 'suppressed' | JobOutcome> {
    const { campaign, holder } = call;
    // The person is on a call of this campaign or another (a lead's, a callback's): it ends first.
    if (!(await this.deps.callSlots.acquire(lineGroup(campaign.workspaceId, call.phone), holder, 1))) return jobLater(concurrencyRecheckMs);
    const slotTaken = await this.deps.callSlots.acquire(callSlotGroup(campaign.workspaceId, campaign.id), holder, campaign.settings.pacing.max_concurrent);
    const held = slotTaken ? await this.checksWithSlot(caller, call, now) : jobLater(concurrencyRecheckMs);
    if (held !== 'clear') await this.release(call);
    return held;
  }

  private async checksWithSlot(caller: WorkspaceCaller, call: CampaignCall, now: number): Promise<'clear' | 'suppressed' | JobOutcome> {
    if ((await this.deps.peers.suppressedAmong(caller, [call.phone])).has(call.phone)) return 'suppressed';
    const rateWait = await rateWaitMs(this.deps.dialRates, call.campaign, now);
    return rateWait > 0 ? jobLater(rateWait) : 'clear';
  }

  /** Places the call, its line and slot taken, from the pool's number at `turn`; gives them back unless a call was placed. */
  async place(caller: WorkspaceCaller, call: CampaignCall, turn: number, details: CallDetails): Promise<Placement> {
    const { campaign } = call;
    const numbers = campaign.settings.from_number_ids;
    const from = await this.deps.fromNumbers.numberOf(caller, numbers[turn % numbers.length]!);
    const placement: Placement = from
      ? await this.deps.calls.place(caller, { assistantId: campaign.settings.assistant_id, from, to: call.phone, campaignId: campaign.id, ...details })
      : { kind: 'refused', reason: 'the number the campaign calls from is no longer the workspace’s' };
    if (placement.kind !== 'placed') await this.release(call);
    return placement;
  }
}

/** A stable small number per id (a lead's, a callback's), so the first number of the pool differs from call to call. */
export function turnOf(id: string): number {
  let sum = 0;
  for (const char of id) sum = (sum * 31 + char.charCodeAt(0)) % 1_000_003;
  return sum;
}
