// Moves committed outbox events to the event stream, at least once, with a bounded window of
// publishes awaiting their acks: an event is marked only after the stream acknowledged it, so one
// published but not yet marked (the process died in between, or its ack was lost) is published
// again, and the stream's duplicate window and the consumer's processed-events table absorb the copy.
//
// Order: the window's publishes go out in outbox order on one connection, and the stream stores
// them in that order; only a failed publish, re-sent by a later run, lands after events that
// followed it. No consumer relies on stream order: billing's usage consumer settles each event's
// own hold (or charges its own event id), and WalletChanged carries the wallet's version.
import type { Logger } from '../logger.js';
import { PollingLoop, type PassOutcome } from '../polling-loop.js';
import { nowIso } from '../time.js';
import { forEachConcurrently } from './bounded-concurrency.js';
import { redeliveryDelayMs, type EventStream, type RedeliveryBackoff } from './event-stream.js';
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

export class OutboxRelay {
  private readonly intervalMs: number;
  private readonly batchSize: number;
  private readonly maxInFlight: number;
  private readonly retryBackoff: RedeliveryBackoff;
  private readonly clock: () => string;
  private failures = 0;
  private readonly loop = new PollingLoop({
    pass: () => this.runOnce(),
    delayMs: (outcome) => this.nextDelayMs(outcome),
    // A relay backing off after a failure keeps waiting.
    wakeCutsWait: () => this.failures === 0,
  });

  constructor(private readonly options: OutboxRelayOptions) {
    this.intervalMs = options.intervalMs ?? 1_000;
    this.batchSize = options.batchSize ?? 100;
    this.maxInFlight = options.maxInFlight ?? 32;
    this.retryBackoff = options.retryBackoff ?? { initialMs: 500, maxMs: 30_000 };
    this.clock = options.clock ?? nowIso;
  }

  start(): void {
    this.loop.start();
  }

  /** Asks for a run now (call it after committing an event); a relay backing off after a failure keeps waiting. */
  wake(): void {
    this.loop.wake();
  }

  /**
   * Stops scheduling runs; resolves once the batch being published is marked (true), or after
   * `shutdownWaitMs` when the outbox or the stream does not answer (false: the batch is published
   * again by the next run, here or in another replica).
   */
  stop(): Promise<boolean> {
    return this.loop.stop();
  }

  /**
   * Publishes every pending event, batch by batch; resolves with how many were published and
   * rejects on the first failure, after the publishes already under way have settled (every
   * event the stream acknowledged is marked; the failed one stays pending). For callers that do
   * not start the loop; never run it beside a started relay of the same outbox.
   */
  async runOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const published = await this.relayBatch();
      total += published;
      if (published < this.batchSize || this.loop.stopped) return total;
    }
  }

  private nextDelayMs(outcome: PassOutcome): number {
    if (!outcome.failed) {
      this.failures = 0;
      return this.intervalMs;
    }
    this.failures += 1;
    const delay = redeliveryDelayMs(this.failures, this.retryBackoff);
    this.options.logger.warn('outbox relay failed; retrying', { error: outcome.error, failures: this.failures, retryInMs: delay });
    return delay;
  }

  private async relayBatch(): Promise<number> {
    const events = await this.options.outbox.pending(this.batchSize);
    const published: string[] = [];
    try {
      await forEachConcurrently(events, this.maxInFlight, async (event) => {
        await this.options.stream.publish(event.subject, event.payload, event.id);
        published.push(event.id);
      });
    } finally {
      if (published.length > 0) await this.options.outbox.markPublished(published, this.clock());
    }
    return published.length;
  }
}
