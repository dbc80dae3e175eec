// Follows the calls service's ended calls (calls.calls.ended) for the calls campaigns placed: each
// ends its lead's attempt (completed, a retry scheduled and enqueued, or failed), gives its call
// slot and its person's line back, and may complete the campaign; a callback's call settles its callback (callback-outcomes.ts). A lead moves only while it is calling for that attempt, so a redelivered event changes nothing.
import { fromBinary, type JsonObject } from '@bufbuild/protobuf';
import { callEndedSubject, callStream, durableNames, type Consumption, type EventStream } from '@voice/runtime/events';
import type { Logger } from '@voice/runtime/logger';
import { CallChangedSchema } from '@voice/proto/voice/calls/v1/events';
import { callOutcomeOf, leadStatusAfter } from '../domain/lead-outcome.js';
import type { CampaignStore } from '../store/store.js';
import { callSlotHolder, releaseCall, type CallSlots } from './call-slots.js';
import { applyCallbackCallEnd, type EndedCall } from './callback-outcomes.js';
import { enqueueNextAttempt, type DialQueue } from './dial-job.js';
import { completeIfDone } from './running-campaign.js';

const concurrency = 8;

export interface CallOutcomeDeps {
  store: CampaignStore;
  queue: DialQueue;
  callSlots: CallSlots;
  now: () => Date;
  /** Asks the outbox relay to publish now (after a campaign completed). */
  wakeRelay: () => void;
  logger: Logger;
}

/** The campaign, lead and attempt a call's metadata names, when a campaign placed it. */
function campaignCallOf(metadata: JsonObject | undefined): { campaignId: string; leadId: string; attempt: number } | undefined {
  const { campaign_id: campaignId, lead_id: leadId, attempt } = metadata ?? {};
  if (typeof campaignId !== 'string' || typeof leadId !== 'string' || typeof attempt !== 'number') return undefined;
  return { campaignId, leadId, attempt };
}

export async function applyCallEnd(deps: CallOutcomeDeps, workspaceId: string, call: EndedCall): Promise<void> {
  const placed = campaignCallOf(call.metadata);
  const outcome = callOutcomeOf(call.status, call.endReason);
  if (!placed || !outcome) return;
  const campaign = await deps.store.getCampaign(workspaceId, placed.campaignId);
  const lead = campaign && (await deps.store.transitionLead(workspaceId, placed.leadId, { statuses: ['calling'], attempts: placed.attempt }, { status: leadStatusAfter(outcome, placed.attempt, campaign.settings.retry), addCallId: call.id }, deps.now().toISOString()));
  // The call is over whatever became of its lead (the campaign deleted, the event a redelivery).
  await releaseCall(deps.callSlots, { workspaceId, campaignId: placed.campaignId, holder: callSlotHolder(placed.leadId, placed.attempt), phone: call.to });
  if (!campaign || !lead) return;
  const { status } = lead;
  deps.logger.debug('campaign call ended', { campaignId: campaign.id, leadId: lead.id, callId: call.id, outcome, status });
  // A retry of a stopped campaign waits for its next start, which enqueues it.
  if (status === 'retry_scheduled' && campaign.status === 'running' && campaign.startedAt) await enqueueNextAttempt(deps.queue, lead, campaign);
  else await completeIfDone(deps, workspaceId, campaign.id);
}

export async function consumeCallOutcomes(events: EventStream, deps: CallOutcomeDeps): Promise<Consumption> {
  await events.ensureStream(callStream.name, callStream.subjects);
  return events.consume({
    stream: callStream.name,
    durable: durableNames.campaignsCalls,
    subjects: [callEndedSubject],
    concurrency,
    handler: async (event) => {
      let changed;
      try {
        changed = fromBinary(CallChangedSchema, event.payload);
      } catch (error) {
        deps.logger.error('undecodable call event dropped', { event_id: event.id, error });
        return;
      }
      if (!changed.call) return;
      const call = { id: changed.call.id, to: changed.call.to, status: changed.call.status, endReason: changed.call.endReason, metadata: changed.call.metadata };
      await applyCallEnd(deps, changed.workspaceId, call);
      await applyCallbackCallEnd(deps, changed.workspaceId, call);
    },
  });
}
