// Consumes telephony's events (SMS statuses, numbers past due or released) with the webhooks
// durable shared by the worker's replicas, and fans each out to the endpoints that want it. The
// events table makes it idempotent by event id, so several are handled at once.
import { durableNames, telephonyEventStream, type Consumption, type EventStream } from '@voice/runtime/events';
import type { Logger } from '@voice/runtime/logger';
import type { FanOut } from './fan-out.js';
import { telephonyWebhookEvent } from './sources.js';

const concurrency = 8;

export async function consumeTelephonyEvents(stream: EventStream, deps: { fanOut: FanOut; clock: () => Date; logger: Logger }): Promise<Consumption> {
  await stream.ensureStream(telephonyEventStream.name, telephonyEventStream.subjects);
  return stream.consume({
    stream: telephonyEventStream.name,
    durable: durableNames.webhooksTelephony,
    subjects: telephonyEventStream.subjects,
    concurrency,
    handler: async (event) => {
      let sourced;
      try {
        sourced = telephonyWebhookEvent(event);
      } catch (error) {
        deps.logger.error('undecodable telephony event dropped', { event_id: event.id, subject: event.subject, error });
        return;
      }
      if (sourced) await deps.fanOut.deliver(sourced, deps.clock());
    },
  });
}
