// The usage event that bills one accepted SMS; its id is the reservation's, so billing's
// report of having applied it closes exactly that reservation.
import { create, toBinary } from '@bufbuild/protobuf';
import { toTimestamp, usageSubject, type NewOutboxEvent } from '@voice/runtime';
import { UsageEventSchema } from '@voice/proto/voice/billing/v1/events';
import type { MessageRecord, Reservation } from '../store/store.js';

export const smsUsageKind = 'sms.outbound';

export function smsUsageEvent(message: MessageRecord, reservation: Reservation, at: string): NewOutboxEvent {
  const event = create(UsageEventSchema, {
    eventId: reservation.id,
    workspaceId: message.workspaceId,
    kind: smsUsageKind,
    creditUnits: BigInt(reservation.creditUnits),
    minuteUnits: 0n,
    reference: message.id,
    description: `SMS to ${message.to}, ${message.segments} ${message.encoding} segment${message.segments === 1 ? '' : 's'}`,
    occurredAt: toTimestamp(at),
  });
  return { id: reservation.id, subject: usageSubject('telephony', 'sms'), payload: toBinary(UsageEventSchema, event) };
}
