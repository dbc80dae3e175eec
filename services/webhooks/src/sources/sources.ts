// Where each event type comes from and what it carries, in one place: the decoding of the source
// streams' events into webhook events whose data is the API's own curated view of the resource
// (the presenters GET /calls/{id}, GET /sms/messages/{id} and GET /phone-numbers/{id} answer with;
// nothing SPEC.md 1 rule 3 hides; a completed campaign's summary names its leads only by count).
import { fromBinary } from '@bufbuild/protobuf';
import { formatCredits } from '@voice/runtime/amounts';
import { callEndedSubject, callStartedSubject, campaignCompletedSubject, numberBillingChangedSubject, smsStatusChangedSubject, type StreamEvent } from '@voice/runtime/events';
import { toIso } from '@voice/runtime/time';
import { WalletChangedSchema } from '@voice/proto/voice/billing/v1/events';
import { CallChangedSchema } from '@voice/proto/voice/calls/v1/events';
import { CampaignCompletedSchema } from '@voice/proto/voice/campaigns/v1/events';
import { presentCall } from '@voice/contracts/calls-presenters';
import { presentLeadCounts } from '@voice/contracts/campaigns-presenters';
import { NumberBillingChange, NumberBillingChangedSchema, SmsStatusChangedSchema } from '@voice/proto/voice/telephony/v1/events';
import { presentPhoneNumber, presentSmsMessage } from '@voice/contracts/telephony-presenters';
import type { CampaignCompletedData, SentEventType, WebhookEvent } from '@voice/contracts/webhooks';

/** A webhook event for the endpoints of a workspace; its id is the source event's, so a copy is recognised. */
export interface SourcedEvent {
  workspaceId: string;
  envelope: WebhookEvent;
}

/** Telephony's event as a webhook event; undefined for one that names no workspace or resource. */
export function telephonyWebhookEvent(event: StreamEvent): SourcedEvent | undefined {
  if (event.subject === smsStatusChangedSubject) {
    const changed = fromBinary(SmsStatusChangedSchema, event.payload);
    if (!changed.workspaceId || !changed.message) return undefined;
    return sourced(changed.workspaceId, changed.eventId, 'sms.status', toIso(changed.occurredAt), presentSmsMessage(changed.message));
  }
  if (event.subject === numberBillingChangedSubject) {
    const changed = fromBinary(NumberBillingChangedSchema, event.payload);
    if (!changed.workspaceId || !changed.number) return undefined;
    const type = changed.change === NumberBillingChange.PAST_DUE ? 'number.past_due' : changed.change === NumberBillingChange.RELEASED ? 'number.released' : undefined;
    if (!type) return undefined;
    return sourced(changed.workspaceId, changed.eventId, type, toIso(changed.occurredAt), presentPhoneNumber(changed.number));
  }
  return undefined;
}

/** The calls service's event as a webhook event; undefined for one that names no workspace or call. */
export function callWebhookEvent(event: StreamEvent): SourcedEvent | undefined {
  const type = event.subject === callStartedSubject ? 'call.started' : event.subject === callEndedSubject ? 'call.ended' : undefined;
  if (!type) return undefined;
  const changed = fromBinary(CallChangedSchema, event.payload);
  if (!changed.workspaceId || !changed.call) return undefined;
  return sourced(changed.workspaceId, changed.eventId, type, toIso(changed.occurredAt), presentCall(changed.call));
}

/** The campaigns service's completion as a webhook event; undefined for one that names no workspace or campaign. */
export function campaignWebhookEvent(event: StreamEvent): SourcedEvent | undefined {
  if (event.subject !== campaignCompletedSubject) return undefined;
  const completed = fromBinary(CampaignCompletedSchema, event.payload);
  const campaign = completed.campaign;
  if (!completed.workspaceId || !campaign) return undefined;
  const occurredAt = toIso(completed.occurredAt) ?? (event.storedAt ?? new Date()).toISOString();
  const data: CampaignCompletedData = {
    id: campaign.id,
    name: String(campaign.settings?.name ?? ''),
    completed_at: toIso(campaign.stoppedAt) ?? occurredAt,
    leads: presentLeadCounts(campaign.leads),
  };
  return sourced(completed.workspaceId, completed.eventId, 'campaign.completed', occurredAt, data);
}

/** What a wallet change says of the credits still available; undefined for an issuer's wallet (it has no floor). */
export function walletAvailability(event: StreamEvent): { eventId: string; workspaceId: string; availableUnits: number; occurredAt: string } | undefined {
  const changed = fromBinary(WalletChangedSchema, event.payload);
  const wallet = changed.wallet;
  if (!wallet || wallet.issuer || !wallet.workspaceId) return undefined;
  const available = wallet.available ?? wallet.balance;
  return {
    eventId: changed.eventId,
    workspaceId: wallet.workspaceId,
    availableUnits: Number(available?.creditUnits ?? 0n),
    occurredAt: toIso(changed.occurredAt) ?? (event.storedAt ?? new Date()).toISOString(),
  };
}

/** The balance.low event of a wallet change that took the available credits below the threshold. */
export const balanceLowEvent = (change: NonNullable<ReturnType<typeof walletAvailability>>, thresholdUnits: number): SourcedEvent =>
  sourced(change.workspaceId, change.eventId, 'balance.low', change.occurredAt, {
    available: formatCredits(change.availableUnits),
    threshold: formatCredits(thresholdUnits),
  });

function sourced(workspaceId: string, id: string, type: SentEventType, createdAt: string | null, data: unknown): SourcedEvent {
  return { workspaceId, envelope: { id, type, created_at: createdAt ?? new Date().toISOString(), data } };
}
