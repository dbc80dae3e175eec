// The usage events that settle telephony's holds at billing, written to the outbox in the
// transaction that settles what they pay for: a capture of the price (the carrier took the
// message, the number was bought or renewed), or a release (a use of nothing).
import { create, toBinary } from '@bufbuild/protobuf';
import { usageSubject, type NewOutboxEvent } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { toTimestamp } from '@voice/runtime/time';
import { UsageEventSchema } from '@voice/proto/voice/billing/v1/events';
import type { MessageRecord } from '../store/store.js';

export const smsUsageKind = 'sms.outbound';

export interface HoldSettlement {
  workspaceId: string;
  holdId: string;
  kind: string;
  /** What was used; 0 releases the hold. */
  creditUnits: number;
  reference: string;
  description: string;
  at: string;
}

/** usage.telephony.<topic>, e.g. usage.telephony.sms. */
export function settlementEvent(topic: string, settlement: HoldSettlement): NewOutboxEvent {
  const event = create(UsageEventSchema, {
    eventId: newId(),
    workspaceId: settlement.workspaceId,
    kind: settlement.kind,
    creditUnits: BigInt(settlement.creditUnits),
    minuteUnits: 0n,
    reference: settlement.reference,
    description: settlement.description,
    occurredAt: toTimestamp(settlement.at),
    holdId: settlement.holdId,
  });
  return { id: event.eventId, subject: usageSubject('telephony', topic), payload: toBinary(UsageEventSchema, event) };
}

/** An SMS's hold is held under the message's id. */
export const smsHoldId = (message: Pick<MessageRecord, 'id'>): string => message.id;

export const smsDescription = (message: Pick<MessageRecord, 'to' | 'segments' | 'encoding'>): string =>
  `SMS to ${message.to}, ${message.segments} ${message.encoding} segment${message.segments === 1 ? '' : 's'}`;

const smsSettlement = (message: MessageRecord, creditUnits: number, at: string): NewOutboxEvent =>
  settlementEvent('sms', {
    workspaceId: message.workspaceId,
    holdId: smsHoldId(message),
    kind: smsUsageKind,
    creditUnits,
    reference: message.id,
    description: smsDescription(message),
    at,
  });

/** The carrier took the message: its hold is captured at the message's price (a free message has none). */
export const smsCaptureEvent = (message: MessageRecord, at: string): NewOutboxEvent | undefined =>
  message.creditUnits > 0 ? smsSettlement(message, message.creditUnits, at) : undefined;

/** The message was not sent: its hold, if billing made one, goes back. */
export const smsReleaseEvent = (message: MessageRecord, at: string): NewOutboxEvent | undefined =>
  message.creditUnits > 0 ? smsSettlement(message, 0, at) : undefined;
