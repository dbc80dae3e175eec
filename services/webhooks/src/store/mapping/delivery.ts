// A delivery's stored form (SQLite's row and MongoDB's document but for the id) and its mapping
// to and from the record.
import type { AttemptOutcome, AttemptRecord, DeliveryRecord, DeliveryStatus } from '../store.js';

export interface StoredDelivery {
  workspace_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: string;
  /** JSON text in both adapters, oldest first. */
  attempts: string;
  next_attempt_at: string | null;
  give_up_at: string;
  created_at: string;
  delivered_at: string | null;
}

export const storedDelivery = (delivery: DeliveryRecord): StoredDelivery => ({
  workspace_id: delivery.workspaceId,
  endpoint_id: delivery.endpointId,
  event_id: delivery.eventId,
  event_type: delivery.eventType,
  status: delivery.status,
  attempts: JSON.stringify(delivery.attempts),
  next_attempt_at: delivery.nextAttemptAt,
  give_up_at: delivery.giveUpAt,
  created_at: delivery.createdAt,
  delivered_at: delivery.deliveredAt,
});

export const deliveryFromStored = (id: string, stored: StoredDelivery): DeliveryRecord => ({
  id,
  workspaceId: stored.workspace_id,
  endpointId: stored.endpoint_id,
  eventId: stored.event_id,
  eventType: stored.event_type,
  status: stored.status as DeliveryStatus,
  attempts: JSON.parse(stored.attempts) as AttemptRecord[],
  nextAttemptAt: stored.next_attempt_at,
  giveUpAt: stored.give_up_at,
  createdAt: stored.created_at,
  deliveredAt: stored.delivered_at,
});

/** The delivery after an attempt with this outcome. */
export function afterAttempt(delivery: DeliveryRecord, attempt: AttemptRecord, outcome: AttemptOutcome): DeliveryRecord {
  const attempts = [...delivery.attempts, attempt];
  switch (outcome.kind) {
    case 'delivered':
      return { ...delivery, attempts, status: 'delivered', nextAttemptAt: null, deliveredAt: attempt.at };
    case 'retry':
      return { ...delivery, attempts, status: 'pending', nextAttemptAt: outcome.nextAttemptAt };
    case 'failed':
      return { ...delivery, attempts, status: 'failed', nextAttemptAt: null };
  }
}
