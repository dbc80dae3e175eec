// Consumes a source stream (telephony's events, the calls service's) with the webhooks durable shared
// by the worker's replicas, and fans each event out to the endpoints that want it. The events table
// makes it idempotent by event id, so several are handled at once.
import type { Consumption, EventStream, StreamDefinition, StreamEvent } from '@voice/runtime/events';
import type { Logger } from '@voice/runtime/logger';
import type { FanOut } from './fan-out.js';
import type { SourcedEvent } from './sources.js';

const concurrency = 8;

export interface EventSource {
  stream: StreamDefinition;
  durable: string;
  /** The webhook event of a source event; undefined for one no webhook is made of. */
  decode(event: StreamEvent): SourcedEvent | undefined;
}

export async function consumeSource(stream: EventStream, source: EventSource, deps: { fanOut: FanOut; clock: () => Date; logger: Logger }): Promise<Consumption> {
  await stream.ensureStream(source.stream.name, source.stream.subjects);
  return stream.consume({
    stream: source.stream.name,
    durable: source.durable,
    subjects: source.stream.subjects,
    concurrency,
    handler: async (event) => {
      let sourced;
      try {
        sourced = source.decode(event);
      } catch (error) {
        deps.logger.error('undecodable source event dropped', { event_id: event.id, subject: event.subject, error });
        return;
      }
      if (sourced) await deps.fanOut.deliver(sourced, deps.clock());
    },
  });
}
