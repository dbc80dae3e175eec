// EventStream on NATS JetStream: file-backed streams that drop re-published event ids, and
// durable pull consumers that ack an event only after its handler has succeeded.
import { setTimeout as delay } from 'node:timers/promises';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  nanos,
  NatsError,
  RetentionPolicy,
  StorageType,
  type Consumer,
  type ConsumerConfig,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
} from 'nats';
import type { Logger } from '../logger.js';
import { closeNats, connectNats, natsVersionAtLeast } from '../nats/connection.js';
import { settledWithin } from '../shutdown.js';
import {
  checkConsumeOptions,
  eventStreamDefaults,
  redeliveryDelayMs,
  resolveStreamLimits,
  type ConsumeOptions,
  type Consumption,
  type EnsureStreamOptions,
  type EventStream,
  type PublishResult,
  stopAll,
  trackConsumption,
  afterFailedDelivery,
} from './event-stream.js';
import { TaskWindow } from './bounded-concurrency.js';
import { matchesAny } from './subject-match.js';

/** The header JetStream de-duplicates on; `msgID` sets it. */
const messageIdHeader = 'Nats-Msg-Id';
const streamNameInUse = 10058;

// Events come through one pull subscription a consumer keeps open (nats.js `consume`), which asks
// for more as its handlers take events. A fetch per batch lost events: nats.js ends a fetch on its
// own clock 5% after `expires`, and an event the server handed over in the pull's last moments
// (later than that on a loaded machine) reached no handler and came again only after the
// consumer's ack wait (a 5 s tail on the cluster's SMS charges). A stopped consumer's pull leaves
// nothing behind: the server hands no event to a pull whose reply subject has no interest.
// The buffer holds at least twice the handlers at work, so a freed handler finds its next event here.
const minBatchSize = 32;
const pullExpiresMs = 1_000;
const ackTimeoutMs = 5_000;

const apiErrorCode = (error: unknown): number | undefined =>
  error instanceof NatsError ? error.api_error?.err_code : undefined;

/** Multiple filter subjects per consumer arrived in NATS 2.10. */
const supportsFilterSubjects = (version: string | undefined): boolean => natsVersionAtLeast(version, [2, 10, 0]);

/** Waits `ms`, or less when `signal` aborts; never rejects. */
const sleep = (ms: number, signal: AbortSignal): Promise<void> => delay(ms, undefined, { signal }).catch(() => undefined);

export class JetStreamEventStream implements EventStream {
  private readonly consumptions = new Set<Consumption>();

  private constructor(
    private readonly connection: NatsConnection,
    private readonly manager: JetStreamManager,
    private readonly client: JetStreamClient,
    private readonly logger: Logger,
    /** Copies of a stream when ensureStream's caller does not say. */
    private readonly replicas: number,
  ) {}

  static async connect(url: string, name: string, logger: Logger, replicas = 1): Promise<JetStreamEventStream> {
    const connection = await connectNats(url, name);
    try {
      const manager = await connection.jetstreamManager();
      return new JetStreamEventStream(connection, manager, connection.jetstream(), logger, replicas);
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  async ensureStream(name: string, subjects: string[], options: EnsureStreamOptions = {}): Promise<void> {
    const { duplicateWindowMs, maxAgeMs, replicas, retention } = resolveStreamLimits({ ...options, replicas: options.replicas ?? this.replicas });
    const limits = {
      subjects,
      duplicate_window: nanos(duplicateWindowMs),
      max_age: nanos(maxAgeMs),
      num_replicas: replicas,
    };
    try {
      await this.manager.streams.add({
        name,
        storage: StorageType.File,
        // A stream's retention cannot change after it exists (the update below leaves it as it is).
        retention: retention === 'workqueue' ? RetentionPolicy.Workqueue : RetentionPolicy.Limits,
        discard: DiscardPolicy.Old,
        ...limits,
      });
    } catch (error) {
      // Adding is idempotent for an identical configuration; anything else is an update.
      if (apiErrorCode(error) !== streamNameInUse) throw error;
      await this.manager.streams.update(name, limits);
    }
  }

  async publish(subject: string, payload: Uint8Array, eventId: string): Promise<PublishResult> {
    const ack = await this.client.publish(subject, payload, { msgID: eventId });
    return { duplicate: ack.duplicate };
  }

  async consume(options: ConsumeOptions): Promise<Consumption> {
    checkConsumeOptions(options);
    const filterOnServer = options.subjects.length === 1 || supportsFilterSubjects(this.connection.info?.version);
    const config: Partial<ConsumerConfig> = {
      durable_name: options.durable,
      ack_policy: AckPolicy.Explicit,
      // A durable created after events were published still gets them.
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(options.ackWaitMs ?? eventStreamDefaults.ackWaitMs),
      max_deliver: options.maxDeliver ?? -1,
    };
    if (options.subjects.length === 1) config.filter_subject = options.subjects[0];
    else if (filterOnServer) config.filter_subjects = options.subjects;
    // Creating an existing durable updates it (its position is kept).
    await this.manager.consumers.add(options.stream, config);
    const consumer = await this.client.consumers.get(options.stream, options.durable);
    const consumption = new JetStreamConsumption(consumer, options, filterOnServer, this.logger.child({
      stream: options.stream,
      durable: options.durable,
    }));
    return trackConsumption(this.consumptions, consumption);
  }

  async close(): Promise<void> {
    await stopAll(this.consumptions);
    await closeNats(this.connection);
  }
}

class JetStreamConsumption implements Consumption {
  private readonly stopping = new AbortController();
  private readonly loop: Promise<void>;

  constructor(
    private readonly consumer: Consumer,
    private readonly options: ConsumeOptions,
    private readonly filterOnServer: boolean,
    private readonly logger: Logger,
  ) {
    this.loop = this.run();
  }

  /** Resolves once the events in hand are acked or handed back, or after `shutdownWaitMs` when a handler or NATS does not answer (its event comes again after its ack wait). */
  async stop(): Promise<void> {
    this.stopping.abort();
    if (!(await settledWithin(this.loop))) this.logger.warn('event handler still busy at stop; the event comes again');
  }

  private async run(): Promise<void> {
    const concurrency = this.options.concurrency ?? 1;
    const batchSize = Math.max(minBatchSize, 2 * concurrency);
    // One window over the subscription: the next event is taken as soon as a handler is free, not
    // after the ack of the events before it.
    const handlers = new TaskWindow(concurrency);
    let failures = 0;
    try {
      while (!this.stopping.signal.aborted) {
        try {
          const messages = await this.consumer.consume({ max_messages: batchSize, expires: pullExpiresMs });
          // Closing lets the events already received through the iteration first: handing them back
          // would only delay them until their ack wait ran out.
          const close = () => void messages.close();
          this.stopping.signal.addEventListener('abort', close, { once: true });
          if (this.stopping.signal.aborted) close();
          try {
            for await (const message of messages) {
              await handlers.start(() =>
                // Not acked, the event comes again after its ack wait; the window stays open for the others.
                this.handle(message).catch((error: unknown) => this.logger.warn('handling an event failed; it comes again', { error, subject: message.subject })),
              );
              failures = 0;
            }
            // Ended without a stop (the connection closed, the consumer went away): subscribe again after a pause.
            if (!this.stopping.signal.aborted) throw new Error('the event subscription ended');
          } finally {
            this.stopping.signal.removeEventListener('abort', close);
            close();
          }
        } catch (error) {
          failures += 1;
          const wait = redeliveryDelayMs(failures, { initialMs: 250, maxMs: 10_000 });
          this.logger.warn('fetching events failed; retrying', { error, retryInMs: wait });
          await sleep(wait, this.stopping.signal);
        }
      }
    } finally {
      await handlers.settled();
    }
  }

  private async handle(message: JsMsg): Promise<void> {
    const id = message.headers?.get(messageIdHeader);
    if (!id) {
      this.logger.error('event without an id dropped', { subject: message.subject, sequence: message.seq });
      message.term();
      return;
    }
    if (!this.filterOnServer && !matchesAny(this.options.subjects, message.subject)) {
      message.ack();
      return;
    }
    const deliveryCount = message.info.deliveryCount;
    const ackWaitMs = this.options.ackWaitMs ?? eventStreamDefaults.ackWaitMs;
    // A slow handler is still alive: keep the server from handing the event to someone else.
    const progress = setInterval(() => message.working(), Math.max(ackWaitMs / 3, 100));
    try {
      await Promise.resolve().then(() =>
        this.options.handler({ id, subject: message.subject, payload: message.data, deliveryCount, storedAt: new Date(message.info.timestampNanos / 1e6) }),
      );
    } catch (error) {
      const next = afterFailedDelivery({ error, eventId: id, deliveryCount }, { maxDeliver: this.options.maxDeliver, backoff: this.options.redeliveryBackoff }, this.logger);
      if (next.giveUp) message.term();
      else message.nak(next.retryInMs);
      return;
    } finally {
      clearInterval(progress);
    }
    try {
      // Waiting for the server's confirmation means a consumer restarted right after stop()
      // never sees an event that was handled here. Each event is acked on its own as its handler
      // resolves (concurrent handlers' acks overlap): explicit acks have no batch form in nats.js
      // 2.29, and AckPolicy.All would also ack earlier events whose handlers failed.
      await message.ackAck({ timeout: ackTimeoutMs });
    } catch (error) {
      this.logger.warn('ack not confirmed; the event may be delivered again', { error, eventId: id });
    }
  }
}
