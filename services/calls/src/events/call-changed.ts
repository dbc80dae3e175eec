// The CallChanged events the calls service publishes from its outbox: calls.calls.started when a
// call is answered, calls.calls.ended once it ended and its charge is known. Each carries the
// curated call (the same view GET /calls/{id} shows).
import { create, toBinary } from '@bufbuild/protobuf';
import { callEndedSubject, callStartedSubject, type NewOutboxEvent } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { toTimestamp } from '@voice/runtime/time';
import { CallChangedSchema } from '@voice/proto/voice/calls/v1/events';
import { presentCall } from '../presenter.js';
import type { CallView } from '../store/store.js';

function callChanged(subject: string, call: CallView, at: string): NewOutboxEvent {
  const event = create(CallChangedSchema, { eventId: newId(), workspaceId: call.workspaceId, call: presentCall(call), occurredAt: toTimestamp(at) });
  return { id: event.eventId, subject, payload: toBinary(CallChangedSchema, event) };
}

export const callStartedEvent = (call: CallView, at: string): NewOutboxEvent => callChanged(callStartedSubject, call, at);
export const callEndedEvent = (call: CallView, at: string): NewOutboxEvent => callChanged(callEndedSubject, call, at);
