// Turns a sourced event into one pending delivery per enabled endpoint of its workspace that wants
// its type, stored with the event in one transaction, once per event id.
import type { DeliveryRecord, DeliveryStore, EndpointStore, EventRecord } from '../store/store.js';
import { deliveriesOf, eventRecord } from '../events/new-event.js';
import type { SourcedEvent } from './sources.js';

export class FanOut {
  constructor(private readonly store: EndpointStore & DeliveryStore) {}

  /** The event and its deliveries, or undefined when no endpoint wants it. */
  async plan(sourced: SourcedEvent, now: Date): Promise<{ event: EventRecord; deliveries: DeliveryRecord[] } | undefined> {
    const endpoints = await this.store.subscribedEndpoints(sourced.workspaceId, sourced.envelope.type);
    if (endpoints.length === 0) return undefined;
    const event = eventRecord(sourced.workspaceId, sourced.envelope);
    return { event, deliveries: deliveriesOf(event, endpoints, now) };
  }

  /** Stores the event's deliveries; false when nothing was stored (no endpoint wants it, or it came before). */
  async deliver(sourced: SourcedEvent, now: Date): Promise<boolean> {
    const planned = await this.plan(sourced, now);
    return planned ? this.store.addEvent(planned.event, planned.deliveries) : false;
  }
}
