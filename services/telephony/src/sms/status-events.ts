// SmsStatusChanged: a message's status as a carrier moved it, written to telephony's outbox in the
// transaction of the move (subject telephony.events.sms_status), for the webhooks of its workspace.
import { create, toBinary } from '@bufbuild/protobuf';
import { smsStatusChangedSubject, type NewOutboxEvent } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { toTimestamp } from '@voice/runtime/time';
import { SmsStatusChangedSchema } from '@voice/proto/voice/telephony/v1/events';
import { presentMessage } from '../presenter.js';
import type { MessageRecord } from '../store/store.js';

export function smsStatusChangedEvent(message: MessageRecord): NewOutboxEvent {
  const event = create(SmsStatusChangedSchema, {
    eventId: newId(),
    workspaceId: message.workspaceId,
    message: presentMessage(message),
    occurredAt: toTimestamp(message.updatedAt),
  });
  return { id: event.eventId, subject: smsStatusChangedSubject, payload: toBinary(SmsStatusChangedSchema, event) };
}
