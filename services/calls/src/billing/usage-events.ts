// The usage events that settle a call's hold at billing, written to the outbox in the transaction
// that settles the call: a capture of the minutes it lasted (billing pays them from the included
// minutes first, then in credits at the hold's rate), or a release (a call that used nothing).
import { create, toBinary } from '@bufbuild/protobuf';
import { usageSubject, type NewOutboxEvent } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { toTimestamp } from '@voice/runtime/time';
import { UsageEventSchema } from '@voice/proto/voice/billing/v1/events';
import type { CallRecord } from '../store/store.js';

export const callUsageKind = 'call.minutes';

export const callDescription = (call: Pick<CallRecord, 'direction' | 'from' | 'to'>): string =>
  call.direction === 'outbound' ? `Call to ${call.to}` : `Call from ${call.from}`;

/** usage.calls.minutes: captures the call's hold for `minuteUnits` (0 releases it). */
export function callUsageEvent(call: Pick<CallRecord, 'id' | 'workspaceId' | 'holdId' | 'direction' | 'from' | 'to'>, minuteUnits: number, at: string): NewOutboxEvent {
  const event = create(UsageEventSchema, {
    eventId: newId(),
    workspaceId: call.workspaceId,
    kind: callUsageKind,
    creditUnits: 0n,
    minuteUnits: BigInt(minuteUnits),
    reference: call.id,
    description: callDescription(call),
    occurredAt: toTimestamp(at),
    holdId: call.holdId,
  });
  return { id: event.eventId, subject: usageSubject('calls', 'minutes'), payload: toBinary(UsageEventSchema, event) };
}
