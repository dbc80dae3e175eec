// The port every durable event producer and consumer talks to, whatever carries the events.
import type { Logger } from '../logger.js';

/** One event as a consumer's handler sees it. */
export interface StreamEvent {
  /** The producer's event id; the same id is the same event, however often it arrives. */
  id: string;
  subject: string;
  payload: Uint8Array;
  /** 1 on the first delivery to this durable consumer, 2 on the first redelivery, and so on. */
  deliveryCount: number;
  /** When the stream stored the event: its age for consumers whose payload carries no creation time. */
  storedAt?: Date;
}

/** Resolving acknowledges the event; rejecting asks for it again later. */
export type StreamEventHandler = (event: StreamEvent) => Promise<void>;

export interface RedeliveryBackoff {
  /** Delay before the second delivery after a rejected first one. */
  initialMs: number;
  /** Doubling stops here. */
  maxMs: number;
}

export interface ConsumeOptions {
  stream: string;
  /** Name of the durable consumer: the position in the stream that survives restarts. */
  durable: string;
  /** Subjects of the stream this consumer wants (wildcards allowed). */
  subjects: string[];
  handler: StreamEventHandler;
  /** How long the server waits for an ack before redelivering to another client (a crashed one never acks). */
  ackWaitMs?: number;
  /** Deliveries before an event is given up on (logged and dropped); unset means never give up. */
  maxDeliver?: number;
  redeliveryBackoff?: RedeliveryBackoff;
  /**
   * Events handled at once (default 1: one after another, in stream order). Above 1 only for a
   * handler that applies each event once however often and in whatever order it comes (a
   * processed-events record in the transaction of its effect): events then complete out of
   * order, and each is acked once its own handler has resolved. JetStream honours it; the
   * in-process stream hands its events over one at a time.
   */
  concurrency?: number;
}

export interface Consumption {
  /** Stops fetching; resolves once the event in hand is acked or handed back. */
  stop(): Promise<void>;
}

export interface EnsureStreamOptions {
  /** A second publish of an event id within this window is dropped by the stream; positive. */
  duplicateWindowMs?: number;
  /** Events older than this leave the stream, consumed or not; at least the duplicate window. */
  maxAgeMs?: number;
  /** Copies kept in a NATS cluster (1 on a single server). */
  replicas?: number;
  /**
   * 'limits' (default) keeps events for every durable until they age out; 'workqueue' keeps each
   * only until one consumer acks it (a queue of jobs that several replicas share).
   */
  retention?: StreamRetention;
}

export type StreamRetention = 'limits' | 'workqueue';

export interface PublishResult {
  /** True when the stream already held this event id and dropped the new copy. */
  duplicate: boolean;
}

export interface EventStream {
  /** Creates the stream, or brings an existing one to these subjects and limits. */
  ensureStream(name: string, subjects: string[], options?: EnsureStreamOptions): Promise<void>;
  /** Resolves once the stream has stored the event (or recognised it as a duplicate). */
  publish(subject: string, payload: Uint8Array, eventId: string): Promise<PublishResult>;
  consume(options: ConsumeOptions): Promise<Consumption>;
  /** Stops every consumption of this instance, then closes the connection. */
  close(): Promise<void>;
}

export const eventStreamDefaults = {
  // Long enough to cover a relay that dies after publishing and restarts; beyond it the
  // consumer's processed-events table still drops the copy.
  duplicateWindowMs: 60 * 60 * 1000,
  // Long enough for a consumer outage of days; bounded so the stream does not grow forever.
  maxAgeMs: 30 * 24 * 60 * 60 * 1000,
  replicas: 1,
  // The server only needs it to notice a consumer that died holding an event: a live handler
  // extends it while it works.
  ackWaitMs: 30_000,
  redeliveryBackoff: { initialMs: 1_000, maxMs: 60_000 } satisfies RedeliveryBackoff,
} as const;

/** The options with defaults filled in; throws on limits JetStream would reject or misread. */
export function resolveStreamLimits(options: EnsureStreamOptions): Required<EnsureStreamOptions> {
  const limits = {
    duplicateWindowMs: options.duplicateWindowMs ?? eventStreamDefaults.duplicateWindowMs,
    maxAgeMs: options.maxAgeMs ?? eventStreamDefaults.maxAgeMs,
    replicas: options.replicas ?? eventStreamDefaults.replicas,
    retention: options.retention ?? 'limits',
  };
  // JetStream reads a zero window as "the server default" rather than "no de-duplication".
  if (!(limits.duplicateWindowMs > 0)) throw new RangeError('duplicateWindowMs must be positive');
  if (!(limits.maxAgeMs >= limits.duplicateWindowMs)) throw new RangeError('maxAgeMs must be at least duplicateWindowMs');
  if (!Number.isInteger(limits.replicas) || limits.replicas < 1) throw new RangeError('replicas must be a positive integer');
  return limits;
}

/** Throws on consume options that would silently lose or never redeliver events. */
export function checkConsumeOptions(options: ConsumeOptions): void {
  if (options.subjects.length === 0) throw new RangeError('consume needs at least one subject');
  if (options.ackWaitMs !== undefined && !(options.ackWaitMs > 0)) throw new RangeError('ackWaitMs must be positive');
  if (options.maxDeliver !== undefined && !(Number.isInteger(options.maxDeliver) && options.maxDeliver > 0)) {
    throw new RangeError('maxDeliver must be a positive integer');
  }
  if (options.concurrency !== undefined && !(Number.isInteger(options.concurrency) && options.concurrency > 0)) {
    throw new RangeError('concurrency must be a positive integer');
  }
}

/** Delay before delivery number `deliveryCount + 1` of an event whose handler just rejected it. */
export function redeliveryDelayMs(deliveryCount: number, backoff: RedeliveryBackoff): number {
  const exponent = Math.min(Math.max(deliveryCount - 1, 0), 30);
  return Math.min(backoff.initialMs * 2 ** exponent, backoff.maxMs);
}

/** True when the handler may not see this event again after this failed delivery. */
export const isLastDelivery = (deliveryCount: number, maxDeliver: number | undefined): boolean =>
  maxDeliver !== undefined && maxDeliver > 0 && deliveryCount >= maxDeliver;

/**
 * Rejected by a handler that is not failing but not ready for the event yet (a job due later): the
 * event comes again after `delayMs`, not after the consumer's backoff, and nothing is logged as a failure.
 */
export class DeliverLater extends Error {
  constructor(readonly delayMs: number) {
    super(`deliver again in ${delayMs} ms`);
    this.name = 'DeliverLater';
    if (!(delayMs >= 0)) throw new RangeError('delayMs must not be negative');
  }
}

/** What both adapters do after a handler rejected an event: give up on its last delivery, else retry later; logged either way. */
export function afterFailedDelivery(
  failure: { error: unknown; eventId: string; deliveryCount: number },
  policy: { maxDeliver: number | undefined; backoff: RedeliveryBackoff | undefined },
  logger: Logger,
): { giveUp: true } | { giveUp: false; retryInMs: number } {
  if (isLastDelivery(failure.deliveryCount, policy.maxDeliver)) {
    logger.error('event given up after its last delivery', failure);
    return { giveUp: true };
  }
  if (failure.error instanceof DeliverLater) {
    logger.debug('event deferred by its handler', { eventId: failure.eventId, deliveryCount: failure.deliveryCount, retryInMs: failure.error.delayMs });
    return { giveUp: false, retryInMs: failure.error.delayMs };
  }
  const retryInMs = redeliveryDelayMs(failure.deliveryCount, policy.backoff ?? eventStreamDefaults.redeliveryBackoff);
  logger.warn('event handler failed; redelivering later', { ...failure, retryInMs });
  return { giveUp: false, retryInMs };
}

/** Keeps a running consumption in `running` until it is stopped, so an adapter's close() can stop them all. */
export function trackConsumption(running: Set<Consumption>, consumption: Consumption): Consumption {
  running.add(consumption);
  return {
    stop: async () => {
      await consumption.stop();
      running.delete(consumption);
    },
  };
}

/** Stops every consumption still running (an adapter's close()). */
export async function stopAll(running: Set<Consumption>): Promise<void> {
  await Promise.all([...running].map((consumption) => consumption.stop()));
  running.clear();
}
