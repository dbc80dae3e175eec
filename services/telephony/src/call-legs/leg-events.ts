// CallLegChanged: a leg's state as its carrier reported it, written to telephony's outbox in the
// transaction of the move (subject telephony.call_legs.changed), and the recording of a carrier's
// report that writes it.
import { create, toBinary } from '@bufbuild/protobuf';
import { callLegChangedSubject, type NewOutboxEvent } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { toTimestamp } from '@voice/runtime/time';
import { CallLegChangedSchema, CallLegStatus } from '@voice/proto/voice/telephony/v1/call_legs';
import type { LegChange } from '../domain/call-legs.js';
import type { CallLegRecord, CallLegStore, CallLegStatus as LegStatus } from '../store/store.js';

const statusOf: Record<LegStatus, CallLegStatus> = {
  queued: CallLegStatus.QUEUED,
  ringing: CallLegStatus.RINGING,
  in_progress: CallLegStatus.IN_PROGRESS,
  completed: CallLegStatus.COMPLETED,
  no_answer: CallLegStatus.NO_ANSWER,
  busy: CallLegStatus.BUSY,
  failed: CallLegStatus.FAILED,
  canceled: CallLegStatus.CANCELED,
};

/** The event of the leg's current state; none for an inbound leg no call was made for. */
export function callLegChangedEvent(leg: CallLegRecord): NewOutboxEvent | undefined {
  if (leg.callId === null) return undefined;
  const event = create(CallLegChangedSchema, {
    eventId: newId(),
    workspaceId: leg.workspaceId,
    callId: leg.callId,
    legId: leg.id,
    status: statusOf[leg.status],
    sequence: leg.sequence,
    occurredAt: toTimestamp(leg.updatedAt),
    durationSeconds: leg.durationSeconds,
    failureReason: leg.failureReason,
  });
  return { id: event.eventId, subject: callLegChangedSubject, payload: toBinary(CallLegChangedSchema, event) };
}

/** Applies a carrier's report to the leg (only a move forward changes anything) and publishes it. */
export async function recordLegProgress(
  deps: { store: CallLegStore; wakeRelay(): void },
  legId: string,
  change: LegChange,
): Promise<CallLegRecord | undefined> {
  const moved = await deps.store.advanceLeg(legId, change, callLegChangedEvent);
  if (moved) deps.wakeRelay();
  return moved;
}
