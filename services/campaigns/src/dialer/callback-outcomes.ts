// Settles a callback when its call ends (the calls.calls.ended consumer of call-outcomes.ts): completed
// when a person answered, else failed with how the call ended (a voicemail box is not the person). A lead's callback also lands on the lead: its
// call is added to the lead's calls, its call slot and the person's line are given back, and an answered one completes the lead (which may complete its
// campaign). Only a dialing callback moves, so a redelivered event changes nothing.
import type { JsonObject } from '@bufbuild/protobuf';
import type { CallbackFailureReason } from '@voice/contracts/callbacks';
import type { LeadStatus } from '@voice/contracts/campaigns';
import { callOutcomeOf, type CallOutcome } from '../domain/lead-outcome.js';
import type { CallbackRecord } from '../store/callback-store.js';
import type { CampaignStore } from '../store/store.js';
import { callbackSlotHolder, releaseCall, type CallSlots } from './call-slots.js';
import { completeIfDone } from './running-campaign.js';

export interface CallbackOutcomeDeps {
  store: CampaignStore;
  callSlots: CallSlots;
  now: () => Date;
  /** Asks the outbox relay to publish now (after a campaign completed). */
  wakeRelay: () => void;
}

/** An ended call as the calls' events tell it: the number it rang names the person's line it held. */
export interface EndedCall {
  id: string;
  to: string;
  status: Parameters<typeof callOutcomeOf>[0];
  endReason: string;
  metadata?: JsonObject;
}

const failureOf: Record<Exclude<CallOutcome, 'completed'>, CallbackFailureReason> = { no_answer: 'no_answer', busy: 'busy', failed: 'call_failed', voicemail: 'voicemail' };

/** Leads a callback's call lands on; a lead the campaign is calling keeps its attempt's bookkeeping to itself. */
const settledLeadStatuses: readonly LeadStatus[] = ['pending', 'retry_scheduled', 'completed', 'failed'];

/** The callback a call's metadata names, when a callback placed it. */
const callbackIdOf = (metadata: JsonObject | undefined): string | undefined => (typeof metadata?.callback_id === 'string' ? metadata.callback_id : undefined);

export async function applyCallbackCallEnd(deps: CallbackOutcomeDeps, workspaceId: string, call: EndedCall): Promise<void> {
  const callbackId = callbackIdOf(call.metadata);
  const outcome = callOutcomeOf(call.status, call.endReason);
  if (!callbackId || !outcome) return;
  const change = outcome === 'completed' ? { status: 'completed' as const, callId: call.id } : { status: 'failed' as const, failureReason: failureOf[outcome], callId: call.id };
  const settled = await deps.store.callbacks.transitionCallback(workspaceId, callbackId, { statuses: ['dialing'] }, change, deps.now().toISOString());
  const campaignId = call.metadata?.campaign_id;
  // The call is over whatever became of its callback (the event a redelivery).
  if (typeof campaignId === 'string') await releaseCall(deps.callSlots, { workspaceId, campaignId, holder: callbackSlotHolder(callbackId), phone: call.to });
  if (settled?.leadId) await settleLead(deps, settled, outcome === 'completed');
}

async function settleLead(deps: CallbackOutcomeDeps, callback: CallbackRecord, answered: boolean): Promise<void> {
  const lead = await deps.store.getLead(callback.workspaceId, callback.leadId!);
  if (!lead || !settledLeadStatuses.includes(lead.status)) return;
  const moved = await deps.store.transitionLead(
    lead.workspaceId,
    lead.id,
    { statuses: [lead.status], attempts: lead.attempts },
    { status: answered ? 'completed' : lead.status, addCallId: callback.callId! },
    deps.now().toISOString(),
  );
  // The person was reached: a campaign whose last lead this was is done.
  if (moved && answered) await completeIfDone(deps, lead.workspaceId, lead.campaignId);
}
