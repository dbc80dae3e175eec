// An event as it is stored and sent: the envelope receivers get (id, type, created_at, data) as
// the exact body that is signed, and one pending delivery of it per endpoint.
import { newId } from '@voice/runtime/ids';
import type { WebhookEvent } from '@voice/contracts/webhooks';
import { retryWindowMs } from '../domain/retries.js';
import type { DeliveryRecord, EndpointRecord, EventRecord } from '../store/store.js';

export function eventRecord(workspaceId: string, envelope: WebhookEvent): EventRecord {
  return { id: envelope.id, workspaceId, type: envelope.type, body: JSON.stringify(envelope), createdAt: envelope.created_at };
}

/** Deliveries due at once, tried for up to three days. */
export function deliveriesOf(event: EventRecord, endpoints: readonly EndpointRecord[], now: Date): DeliveryRecord[] {
  return endpoints.map((endpoint) => ({
    id: newId(),
    workspaceId: event.workspaceId,
    endpointId: endpoint.id,
    eventId: event.id,
    eventType: event.type,
    status: 'pending',
    attempts: [],
    nextAttemptAt: now.toISOString(),
    giveUpAt: new Date(now.getTime() + retryWindowMs).toISOString(),
    createdAt: now.toISOString(),
    deliveredAt: null,
  }));
}
