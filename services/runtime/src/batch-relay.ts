// The one rule of every background relay that drains a store (the event outbox to the stream, the
// mail outbox to SMTP): a run relays batch after batch until one comes back short; between runs it
// waits, and a wake runs it at once; after a failed run it waits longer, doubling with each further
// failure, and no wake cuts that wait short; stopping lets the batch in flight settle. What one
// batch does, and what a single item's failure means, is the owner's.
import type { Logger } from './logger.js';
import { PollingLoop, type PassOutcome } from './polling-loop.js';
import { redeliveryDelayMs, type RedeliveryBackoff } from './events/event-stream.js';

export interface BatchRelayOptions {
  /**
   * Relays at most `size` items: how many it found and how many it delivered. Rejecting fails the
   * run (the source or the destination cannot be used); what was not delivered waits for a later run.
   */
  batch: (size: number) => Promise<{ found: number; delivered: number }>;
  logger: Logger;
  /** The warning a failed run logs, with the error, the failures in a row and the wait. */
  failureMessage: string;
  /** Pause between runs when nothing wakes the relay. */
  intervalMs: number;
  batchSize: number;
  /** Pause after a failed run, doubling with each further failure. */
  retryBackoff: RedeliveryBackoff;
}

export class BatchRelay {
  private failures = 0;
  private readonly loop = new PollingLoop({
    pass: () => this.runOnce(),
    delayMs: (outcome) => this.nextDelayMs(outcome),
    wakeCutsWait: () => this.failures === 0,
  });

  constructor(private readonly options: BatchRelayOptions) {}

  /** True once `stop()` was called: a batch should end early when it sees it. */
  get stopped(): boolean {
    return this.loop.stopped;
  }

  start(): void {
    this.loop.start();
  }

  /** Asks for a run now (call it after writing to the source); a relay backing off after a failure keeps waiting. */
  wake(): void {
    this.loop.wake();
  }

  /**
   * Stops scheduling runs; resolves once the batch in flight is settled (true), or after
   * `shutdownWaitMs` when the source or destination does not answer (false: a later run, here or
   * in another replica, relays it again).
   */
  stop(): Promise<boolean> {
    return this.loop.stop();
  }

  /**
   * Relays every item there is now, batch by batch; resolves with how many were delivered and
   * rejects with the first failed batch. For callers that do not start the loop; never run it
   * beside a started relay of the same source.
   */
  async runOnce(): Promise<number> {
    let delivered = 0;
    for (;;) {
      const batch = await this.options.batch(this.options.batchSize);
      delivered += batch.delivered;
      if (batch.found < this.options.batchSize || this.loop.stopped) return delivered;
    }
  }

  private nextDelayMs(outcome: PassOutcome): number {
    if (!outcome.failed) {
      this.failures = 0;
      return this.options.intervalMs;
    }
    this.failures += 1;
    const delay = redeliveryDelayMs(this.failures, this.options.retryBackoff);
    this.options.logger.warn(this.options.failureMessage, { error: outcome.error, failures: this.failures, retryInMs: delay });
    return delay;
  }
}
