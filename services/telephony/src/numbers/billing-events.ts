// NumberBillingChanged: a number marked past due or released for its unpaid fee, written to
// telephony's outbox in the transaction of the change (subject telephony.events.number_billing).
import { create, toBinary } from '@bufbuild/protobuf';
import { numberBillingChangedSubject, type NewOutboxEvent } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { toTimestamp } from '@voice/runtime/time';
import { NumberBillingChange, NumberBillingChangedSchema } from '@voice/proto/voice/telephony/v1/events';
import { presentNumber, type NumberTerms } from '../presenter.js';
import type { NumberRecord } from '../store/store.js';

/** The event of `change` to a number, at `at`, as the number is shown under `terms`. */
export const numberBillingChangedEvent =
  (change: 'past_due' | 'released', terms: NumberTerms, at: string) =>
  (number: NumberRecord): NewOutboxEvent => {
    const event = create(NumberBillingChangedSchema, {
      eventId: newId(),
      workspaceId: number.workspaceId,
      number: presentNumber(number, terms),
      change: change === 'past_due' ? NumberBillingChange.PAST_DUE : NumberBillingChange.RELEASED,
      occurredAt: toTimestamp(at),
    });
    return { id: event.eventId, subject: numberBillingChangedSubject, payload: toBinary(NumberBillingChangedSchema, event) };
  };
