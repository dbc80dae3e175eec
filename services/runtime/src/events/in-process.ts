// EventStream inside one process (no NATS_URL): streams that drop re-published event ids and
// durable consumers with the same ack and redelivery rules as JetStream, for the process's lifetime.
import type { Logger } from '../logger.js';
import {
  checkConsumeOptions,
  eventStreamDefaults,
  resolveStreamLimits,
  type ConsumeOptions,
  type Consumption,
  type EnsureStreamOptions,
  type EventStream,
  type PublishResult,
  type StreamRetention,
  stopAll,
  trackConsumption,
  afterFailedDelivery,
} from './event-stream.js';
import { settledWithin } from '../shutdown.js';
import { matchesAny, subjectsOverlap } from './subject-match.js';

interface StoredEvent {
  sequence: number;
  id: string;
  subject: string;
  payload: Uint8Array;
  storedAt: number;
}

interface MemoryStream {
  name: string;
  subjects: string[];
  duplicateWindowMs: number;
  maxAgeMs: number;
  retention: StreamRetention;
  /** Work-queue retention: sequences acked behind a not yet acked one, dropped once everything before them is. */
  acked: Set<number>;
  /** Oldest first; sequences are consecutive. */
  events: StoredEvent[];
  lastSequence: number;
  /** Event id to the time it was stored, for the duplicate window. */
  recentIds: Map<string, number>;
  durables: Map<string, Durable>;
}

/** A consumer's position, kept after it stops so the next consumer with its name resumes there. */
interface Durable {
  stream: MemoryStream;
  subjects: string[];
  maxDeliver: number | undefined;
  backoff: { initialMs: number; maxMs: number };
  /** Highest sequence handed out for the first time. */
  delivered: number;
  /** Sequences whose redelivery delay has run out, oldest first. */
  due: number[];
  /** Deliveries so far of each unacknowledged sequence. */
  deliveries: Map<number, number>;
  timers: Set<NodeJS.Timeout>;
  /** Wakes the consumers that wait for work. */
  waiters: Set<() => void>;
}

const wake = (durable: Durable): void => {
  const waiters = [...durable.waiters];
  durable.waiters.clear();
  waiters.forEach((resume) => resume());
};

export class InProcessEventStream implements EventStream {
  private readonly streams = new Map<string, MemoryStream>();
  private readonly consumptions = new Set<Consumption>();

  constructor(
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {}

  async ensureStream(name: string, subjects: string[], options: EnsureStreamOptions = {}): Promise<void> {
    const limits = resolveStreamLimits(options);
    for (const other of this.streams.values()) {
      if (other.name === name) continue;
      const clash = subjects.find((subject) => other.subjects.some((taken) => subjectsOverlap(subject, taken)));
      if (clash) throw new Error(`subject ${clash} overlaps with stream ${other.name}`);
    }
    const stream = this.streams.get(name) ?? {
      name,
      subjects,
      duplicateWindowMs: 0,
      maxAgeMs: 0,
      retention: limits.retention,
      acked: new Set<number>(),
      events: [],
      lastSequence: 0,
      recentIds: new Map<string, number>(),
      durables: new Map<string, Durable>(),
    };
    stream.subjects = [...subjects];
    stream.duplicateWindowMs = limits.duplicateWindowMs;
    stream.maxAgeMs = limits.maxAgeMs;
    this.streams.set(name, stream);
  }

  async publish(subject: string, payload: Uint8Array, eventId: string): Promise<PublishResult> {
    const stream = [...this.streams.values()].find((candidate) => matchesAny(candidate.subjects, subject));
    if (!stream) throw new Error(`no stream holds subject ${subject}`);
    const now = this.clock();
    this.expire(stream, now);
    if (stream.recentIds.has(eventId)) return { duplicate: true };
    stream.lastSequence += 1;
    // A copy, as a network hop would make: the caller may reuse its buffer.
    stream.events.push({ sequence: stream.lastSequence, id: eventId, subject, payload: payload.slice(), storedAt: now });
    stream.recentIds.set(eventId, now);
    for (const durable of stream.durables.values()) {
      if (matchesAny(durable.subjects, subject)) wake(durable);
    }
    return { duplicate: false };
  }

  /**
   * ackWaitMs is accepted and has nothing to guard here: it exists for a consumer that died
   * holding an event, and an in-process consumer cannot die without the whole stream.
   */
  async consume(options: ConsumeOptions): Promise<Consumption> {
    checkConsumeOptions(options);
    const stream = this.streams.get(options.stream);
    if (!stream) throw new Error(`stream ${options.stream} not found`);
    let durable = stream.durables.get(options.durable);
    if (!durable) {
      durable = {
        stream,
        subjects: [],
        maxDeliver: undefined,
        backoff: eventStreamDefaults.redeliveryBackoff,
        delivered: 0,
        due: [],
        deliveries: new Map(),
        timers: new Set(),
        waiters: new Set(),
      };
      stream.durables.set(options.durable, durable);
    }
    durable.subjects = [...options.subjects];
    durable.maxDeliver = options.maxDeliver;
    durable.backoff = options.redeliveryBackoff ?? eventStreamDefaults.redeliveryBackoff;
    const consumption = new InProcessConsumption(durable, options, this.logger.child({
      stream: options.stream,
      durable: options.durable,
    }), () => this.expire(stream, this.clock()));
    return trackConsumption(this.consumptions, consumption);
  }

  async close(): Promise<void> {
    await stopAll(this.consumptions);
    for (const stream of this.streams.values()) {
      for (const durable of stream.durables.values()) {
        durable.timers.forEach((timer) => clearTimeout(timer));
        durable.timers.clear();
      }
    }
    this.streams.clear();
  }

  private expire(stream: MemoryStream, now: number): void {
    for (const [id, storedAt] of stream.recentIds) {
      // Map order is insertion order, so the first recent id ends the scan.
      if (now - storedAt < stream.duplicateWindowMs) break;
      stream.recentIds.delete(id);
    }
    const firstKept = stream.events.findIndex((event) => now - event.storedAt < stream.maxAgeMs);
    stream.events.splice(0, firstKept === -1 ? stream.events.length : firstKept);
    const first = stream.events[0]?.sequence ?? stream.lastSequence + 1;
    for (const sequence of stream.acked) if (sequence < first) stream.acked.delete(sequence);
  }
}

class InProcessConsumption implements Consumption {
  private stopping = false;
  private readonly loop: Promise<void>;
  private resume: (() => void) | undefined;

  constructor(
    private readonly durable: Durable,
    private readonly options: ConsumeOptions,
    private readonly logger: Logger,
    private readonly expire: () => void,
  ) {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.resume) {
      this.durable.waiters.delete(this.resume);
      this.resume();
    }
    // A handler stuck on a dependency that does not answer is let go (see shutdown.ts).
    await settledWithin(this.loop);
  }

  private async run(): Promise<void> {
    // Starts on a later turn, like a network consumer would, so consume() returns first.
    await Promise.resolve();
    while (!this.stopping) {
      const event = this.take();
      if (event) {
        await this.handle(event);
        continue;
      }
      await new Promise<void>((resolve) => {
        this.resume = resolve;
        this.durable.waiters.add(resolve);
      });
      this.resume = undefined;
    }
  }

  /** The next event this durable owes a delivery: redeliveries that are due first, then new ones. */
  private take(): StoredEvent | undefined {
    this.expire();
    const { stream } = this.durable;
    const first = stream.events[0]?.sequence ?? stream.lastSequence + 1;
    for (let sequence = this.durable.due.shift(); sequence !== undefined; sequence = this.durable.due.shift()) {
      const event = stream.events[sequence - first];
      if (event) return event;
      this.durable.deliveries.delete(sequence);
    }
    for (let sequence = Math.max(this.durable.delivered + 1, first); sequence <= stream.lastSequence; sequence += 1) {
      this.durable.delivered = sequence;
      const event = stream.events[sequence - first];
      if (event && matchesAny(this.durable.subjects, event.subject)) return event;
    }
    return undefined;
  }

  private async handle(event: StoredEvent): Promise<void> {
    const deliveryCount = (this.durable.deliveries.get(event.sequence) ?? 0) + 1;
    this.durable.deliveries.set(event.sequence, deliveryCount);
    try {
      await Promise.resolve().then(() =>
        this.options.handler({ id: event.id, subject: event.subject, payload: event.payload.slice(), deliveryCount, storedAt: new Date(event.storedAt) }),
      );
      this.durable.deliveries.delete(event.sequence);
      this.done(event);
    } catch (error) {
      const next = afterFailedDelivery({ error, eventId: event.id, deliveryCount }, { maxDeliver: this.durable.maxDeliver, backoff: this.durable.backoff }, this.logger);
      if (next.giveUp) {
        this.durable.deliveries.delete(event.sequence);
        this.done(event);
        return;
      }
      const timer = setTimeout(() => {
        this.durable.timers.delete(timer);
        this.durable.due.push(event.sequence);
        wake(this.durable);
      }, next.retryInMs);
      // A pending redelivery alone must not keep the process alive.
      timer.unref();
      this.durable.timers.add(timer);
    }
  }

  /** A work queue keeps an event until it is acked (or given up on): then it leaves the stream. */
  private done(event: StoredEvent): void {
    const { stream } = this.durable;
    if (stream.retention !== 'workqueue') return;
    stream.acked.add(event.sequence);
    while (stream.events[0] && stream.acked.delete(stream.events[0].sequence)) stream.events.shift();
  }
}
