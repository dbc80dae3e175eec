// Moves committed outbox events to the event stream, at least once, with a bounded window of
// publishes awaiting their acks: an event is marked only after the stream acknowledged it, so one
// published but not yet marked (the process died in between, or its ack was lost) is published
// again, and the stream's duplicate window and the consumer's processed-events table absorb the copy.
//
// Order: the window's publishes go out in outbox order on one connection, and the stream stores
// them in that order; only a failed publish, re-sent by a later run, lands after events that
// followed it. No consumer relies on stream order: billing's usage consumer settles each event's
// own hold (or charges its own event id), and WalletChanged carries the wallet's version.
import { BatchRelay } from '../batch-relay.js';
import type { Logger } from '../logger.js';
import { nowIso } from '../time.js';
import { forEachConcurrently } from './bounded-concurrency.js';
import type { EventStream, RedeliveryBackoff } from './event-stream.js';
import type { OutboxReader } from './outbox.js';

export interface OutboxRelayOptions {
  outbox: OutboxReader;
  stream: Pick<EventStream, 'publish'>;
  logger: Logger;
  /** Pause between runs when nothing wakes the relay. */
  intervalMs?: number;
  batchSize?: number;
  /** Publishes of a batch awaiting their acks at once. */
  maxInFlight?: number;
  /** Pause after a failed run, doubling with each further failure. */
  retryBackoff?: RedeliveryBackoff;
  clock?: () => string;
}

/**
 * Runs, waits, wakes, backs off and stops as every relay does (BatchRelay); its batch publishes
 * the pending events, `maxInFlight` awaiting their acks at once, and marks those acknowledged.
 * `runOnce()` rejects on the first failure, after the publishes already under way have settled
 * (every event the stream acknowledged is marked; the failed one stays pending).
 */
export class OutboxRelay extends BatchRelay {
  constructor(options: OutboxRelayOptions) {
    const maxInFlight = options.maxInFlight ?? 32;
    const clock = options.clock ?? nowIso;
    super({
      batch: (size) => publishBatch(options, size, maxInFlight, clock),
      logger: options.logger,
      failureMessage: 'outbox relay failed; retrying',
      intervalMs: options.intervalMs ?? 1_000,
      batchSize: options.batchSize ?? 100,
      retryBackoff: options.retryBackoff ?? { initialMs: 500, maxMs: 30_000 },
    });
  }
}

async function publishBatch(
  { outbox, stream }: OutboxRelayOptions,
  size: number,
  maxInFlight: number,
  clock: () => string,
): Promise<{ found: number; delivered: number }> {
  const events = await outbox.pending(size);
  const published: string[] = [];
  try {
    await forEachConcurrently(events, maxInFlight, async (event) => {
      await stream.publish(event.subject, event.payload, event.id);
      published.push(event.id);
    });
  } finally {
    if (published.length > 0) await outbox.markPublished(published, clock());
  }
  return { found: events.length, delivered: published.length };
}
