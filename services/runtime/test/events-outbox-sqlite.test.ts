// The transactional outbox and idempotent consumption on SQLite files, relayed through the
// in-process stream and through JetStream on the real server at 127.0.0.1:4222.
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { UsageEventSchema } from '@voice/proto/voice/billing/v1/events';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from 'nats';
import { createLogger } from '../src/logger.js';
import { openSqlite, type SqliteDatabase } from '../src/store/sqlite/database.js';
import { nowIso } from '../src/time.js';
import type { EventStream, PublishResult, StreamEvent } from '../src/events/event-stream.js';
import { InProcessEventStream } from '../src/events/in-process.js';
import { JetStreamEventStream } from '../src/events/jetstream.js';
import type { OutboxEvent, OutboxReader } from '../src/events/outbox.js';
import { OutboxRelay } from '../src/events/relay.js';
import { SqliteOutbox, sqliteOutboxMigration } from '../src/store/sqlite/outbox.js';
import { SqliteProcessedEvents, sqliteProcessedEventsMigration } from '../src/store/sqlite/processed-events.js';

const natsUrl = 'nats://127.0.0.1:4222';
const silent = createLogger({ service: 'outbox-test', level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'events-outbox-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const databaseFile = () => join(dir, `${randomUUID()}.sqlite`);

/** The producer: an SMS service whose send writes the message and its usage event together. */
class SmsProducer {
  readonly db: SqliteDatabase;
  readonly outbox: SqliteOutbox;

  constructor(file: string, private readonly subject: string) {
    this.db = openSqlite(file, [
      'CREATE TABLE sms_messages (id TEXT PRIMARY KEY, body TEXT NOT NULL)',
      sqliteOutboxMigration,
    ]);
    this.outbox = new SqliteOutbox(this.db);
  }

  /** Returns the event id; `failAfterWrite` makes the transaction roll back after both inserts. */
  send(credits: number, failAfterWrite = false): string {
    const messageId = randomUUID();
    const eventId = randomUUID();
    const event = create(UsageEventSchema, {
      eventId,
      workspaceId: 'workspace-1',
      kind: 'sms.outbound',
      creditUnits: BigInt(credits),
      reference: messageId,
    });
    this.db.transaction(() => {
      this.db.prepare('INSERT INTO sms_messages (id, body) VALUES (?, ?)').run(messageId, 'hello');
      this.outbox.add({ id: eventId, subject: this.subject, payload: toBinary(UsageEventSchema, event) });
      if (failAfterWrite) throw new Error('carrier refused the message');
    }).immediate();
    return eventId;
  }

  messages(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM sms_messages').get() as { n: number }).n;
  }
}

/** The consumer: a ledger that applies each usage event once, however often it arrives. */
class LedgerConsumer {
  readonly db: SqliteDatabase;
  readonly processed: SqliteProcessedEvents;
  readonly deliveries: StreamEvent[] = [];

  constructor(file: string) {
    // No unique constraint on event_id: a second application would show as a second row.
    this.db = openSqlite(file, ['CREATE TABLE ledger (event_id TEXT NOT NULL, credit_units INTEGER NOT NULL)', sqliteProcessedEventsMigration]);
    this.processed = new SqliteProcessedEvents(this.db);
  }

  readonly handler = async (event: StreamEvent): Promise<void> => {
    this.deliveries.push(event);
    const usage = fromBinary(UsageEventSchema, event.payload);
    this.db.transaction(() => {
      if (this.processed.seen(event.id)) return;
      this.db.prepare('INSERT INTO ledger (event_id, credit_units) VALUES (?, ?)').run(event.id, Number(usage.creditUnits));
      this.processed.record(event.id, nowIso());
    }).immediate();
  };

  rows(): { event_id: string; credit_units: number }[] {
    return this.db.prepare('SELECT event_id, credit_units FROM ledger ORDER BY rowid').all() as { event_id: string; credit_units: number }[];
  }

  applied(id: string): number {
    return this.rows().filter((row) => row.event_id === id).length;
  }
}

/** An outbox whose markPublished fails as if the process died right after publishing. */
class DyingOutbox implements OutboxReader {
  calls = 0;
  constructor(
    private readonly inner: OutboxReader,
    private readonly dieOnCall: number,
  ) {}
  pending(limit: number): Promise<OutboxEvent[]> {
    return this.inner.pending(limit);
  }
  async markPublished(ids: string[], at: string): Promise<void> {
    this.calls += 1;
    if (this.calls === this.dieOnCall) throw new Error('process died before marking the batch');
    await this.inner.markPublished(ids, at);
  }
}

/**
 * A stream connection that loses some publishes: every `refuseEvery`th is refused before it
 * reaches the stream, every `loseAckEvery`th is stored but its ack never comes back.
 */
const flakyStream = (stream: EventStream, refuseEvery: number, loseAckEvery: number) => {
  let calls = 0;
  const failures = { refused: 0, acksLost: 0 };
  return {
    failures,
    publish: async (subject: string, payload: Uint8Array, eventId: string) => {
      calls += 1;
      if (calls % refuseEvery === 0) {
        failures.refused += 1;
        throw new Error('connection lost before the publish');
      }
      const result = await stream.publish(subject, payload, eventId);
      if (calls % loseAckEvery === 0) {
        failures.acksLost += 1;
        throw new Error('timed out waiting for the ack');
      }
      return result;
    },
  };
};

/** Records every publish the relay makes and what the stream answered. */
const recordingStream = (stream: EventStream) => {
  const results: (PublishResult & { id: string })[] = [];
  return {
    results,
    publish: async (subject: string, payload: Uint8Array, eventId: string) => {
      const result = await stream.publish(subject, payload, eventId);
      results.push({ id: eventId, ...result });
      return result;
    },
  };
};

describe('SqliteOutbox', () => {
  let producer: SmsProducer;
  beforeEach(() => {
    producer = new SmsProducer(databaseFile(), 'billing.usage.sms');
  });
  afterEach(() => producer.db.close());

  test('add outside a transaction is refused', () => {
    expect(() => producer.outbox.add({ id: randomUUID(), subject: 's', payload: new Uint8Array([1]) })).toThrow('inside the transaction');
  });

  test('a rolled-back transaction leaves neither the write nor the event; a committed one leaves both', async () => {
    expect(() => producer.send(10, true)).toThrow('carrier refused');
    expect(producer.messages()).toBe(0);
    expect(await producer.outbox.pending(10)).toEqual([]);
    const id = producer.send(10);
    expect(producer.messages()).toBe(1);
    const pending = await producer.outbox.pending(10);
    expect(pending.map((event) => [event.id, event.subject])).toEqual([[id, 'billing.usage.sms']]);
    const usage = fromBinary(UsageEventSchema, pending[0]!.payload);
    expect([usage.eventId, usage.creditUnits, usage.kind]).toEqual([id, 10n, 'sms.outbound']);
  });

  test('pending is in commit order, limited, and excludes published events', async () => {
    const ids = [producer.send(1), producer.send(2), producer.send(3), producer.send(4)];
    expect((await producer.outbox.pending(3)).map((event) => event.id)).toEqual(ids.slice(0, 3));
    await producer.outbox.markPublished([ids[0]!, ids[2]!], '2026-01-01T00:00:00.000Z');
    expect((await producer.outbox.pending(10)).map((event) => event.id)).toEqual([ids[1], ids[3]]);
  });

  test('markPublished keeps the first publication time; prune deletes only events published before the cut-off', async () => {
    const [a, b, c] = [producer.send(1), producer.send(2), producer.send(3)];
    await producer.outbox.markPublished([a], '2026-01-01T00:00:00.000Z');
    await producer.outbox.markPublished([a, b], '2026-01-03T00:00:00.000Z');
    expect(await producer.outbox.prune('2026-01-02T00:00:00.000Z', 10)).toBe(1);
    const left = producer.db.prepare('SELECT id, published_at FROM outbox ORDER BY rowid').all();
    expect(left).toEqual([{ id: b, published_at: '2026-01-03T00:00:00.000Z' }, { id: c, published_at: null }]);
    expect(await producer.outbox.prune('2026-12-31T00:00:00.000Z', 10)).toBe(1);
    expect((await producer.outbox.pending(10)).map((event) => event.id)).toEqual([c]);
  });

  test('prune deletes at most its batch, the earliest published first', async () => {
    const ids = [producer.send(1), producer.send(2), producer.send(3)];
    await producer.outbox.markPublished([ids[2]!], '2026-01-01T00:00:00.000Z');
    await producer.outbox.markPublished([ids[0]!], '2026-01-02T00:00:00.000Z');
    await producer.outbox.markPublished([ids[1]!], '2026-01-03T00:00:00.000Z');
    expect(await producer.outbox.prune('2026-12-31T00:00:00.000Z', 2)).toBe(2);
    expect(producer.db.prepare('SELECT id FROM outbox').all()).toEqual([{ id: ids[1] }]);
    expect(await producer.outbox.prune('2026-12-31T00:00:00.000Z', 2)).toBe(1);
  });

  test('pending events survive reopening the database file', async () => {
    const file = databaseFile();
    const first = new SmsProducer(file, 'billing.usage.sms');
    const id = first.send(5);
    first.db.close();
    const second = new SmsProducer(file, 'billing.usage.sms');
    expect((await second.outbox.pending(10)).map((event) => event.id)).toEqual([id]);
    second.db.close();
  });
});

describe('SqliteProcessedEvents', () => {
  let consumer: LedgerConsumer;
  beforeEach(() => {
    consumer = new LedgerConsumer(databaseFile());
  });
  afterEach(() => consumer.db.close());

  test('record outside a transaction is refused', () => {
    expect(() => consumer.processed.record(randomUUID(), nowIso())).toThrow('inside the transaction');
  });

  test('an id is seen once its transaction commits, and not when it rolls back', () => {
    const kept = randomUUID();
    const rolledBack = randomUUID();
    consumer.db.transaction(() => consumer.processed.record(kept, nowIso()))();
    expect(() =>
      consumer.db.transaction(() => {
        consumer.processed.record(rolledBack, nowIso());
        throw new Error('effect failed');
      })(),
    ).toThrow('effect failed');
    expect(consumer.processed.seen(kept)).toBe(true);
    expect(consumer.processed.seen(rolledBack)).toBe(false);
  });

  test('prune forgets ids processed before the cut-off, at most its batch, the oldest first', () => {
    const [oldest, old, recent] = [randomUUID(), randomUUID(), randomUUID()];
    consumer.db.transaction(() => {
      consumer.processed.record(old, '2026-01-02T00:00:00.000Z');
      consumer.processed.record(oldest, '2026-01-01T00:00:00.000Z');
      consumer.processed.record(recent, '2026-03-01T00:00:00.000Z');
    })();
    expect(consumer.processed.prune('2026-02-01T00:00:00.000Z', 1)).toBe(1);
    expect([consumer.processed.seen(oldest), consumer.processed.seen(old)]).toEqual([false, true]);
    expect(consumer.processed.prune('2026-02-01T00:00:00.000Z', 10)).toBe(1);
    expect([consumer.processed.seen(old), consumer.processed.seen(recent)]).toEqual([false, true]);
  });

  test('the consumer pattern applies an event delivered twice once', async () => {
    const payload = toBinary(UsageEventSchema, create(UsageEventSchema, { creditUnits: 7n }));
    const event = { id: randomUUID(), subject: 'billing.usage.sms', payload, deliveryCount: 1 };
    await consumer.handler(event);
    await consumer.handler({ ...event, deliveryCount: 2 });
    expect(consumer.rows()).toEqual([{ event_id: event.id, credit_units: 7 }]);
  });
});

const adapters: [string, () => Promise<EventStream>][] = [
  ['in-process', async () => new InProcessEventStream(silent)],
  ['JetStream', () => JetStreamEventStream.connect(natsUrl, 'outbox-test', silent)],
];

describe.each(adapters)('outbox, relay and idempotent consumer over the %s stream', (_label, open) => {
  let admin: NatsConnection;
  const created: string[] = [];
  let stream: EventStream;
  let producer: SmsProducer;
  let consumer: LedgerConsumer;
  let subject: string;
  let streamName: string;

  beforeAll(async () => {
    admin = await connect({ servers: natsUrl, name: 'outbox-test-admin' });
  });
  afterAll(async () => {
    const manager = await admin.jetstreamManager();
    for (const name of created) await manager.streams.delete(name).catch(() => false);
    await admin.close();
  });

  const setUp = async (duplicateWindowMs: number) => {
    const run = randomUUID();
    streamName = `outbox_test_${run}`;
    subject = `outbox-test.${run}.usage`;
    stream = await open();
    await stream.ensureStream(streamName, [`outbox-test.${run}.>`], { duplicateWindowMs });
    created.push(streamName);
    producer = new SmsProducer(databaseFile(), subject);
    consumer = new LedgerConsumer(databaseFile());
    return stream.consume({
      stream: streamName, durable: 'ledger', subjects: [subject], handler: consumer.handler, redeliveryBackoff: { initialMs: 50, maxMs: 200 },
    });
  };
  afterEach(async () => {
    await stream.close();
    producer.db.close();
    consumer.db.close();
  });

  test('an event whose transaction rolled back is never published; a committed one is, once', async () => {
    const consumption = await setUp(60_000);
    const relay = new OutboxRelay({ outbox: producer.outbox, stream, logger: silent });
    expect(() => producer.send(10, true)).toThrow();
    const committed = producer.send(20);
    expect(await relay.runOnce()).toBe(1);
    await waitFor('the committed event at the ledger', () => consumer.applied(committed) === 1);
    await consumption.stop();
    expect(consumer.deliveries.map((event) => event.id)).toEqual([committed]);
    expect(consumer.rows()).toEqual([{ event_id: committed, credit_units: 20 }]);
    expect(await producer.outbox.pending(10)).toEqual([]);
  });

  test('a relay that dies between publish and mark publishes again; within the duplicate window the stream drops the copy', async () => {
    const consumption = await setUp(60_000);
    const recording = recordingStream(stream);
    const id = producer.send(30);
    const dying = new OutboxRelay({ outbox: new DyingOutbox(producer.outbox, 1), stream: recording, logger: silent });
    await expect(dying.runOnce()).rejects.toThrow('process died');
    expect((await producer.outbox.pending(10)).map((event) => event.id)).toEqual([id]);
    const restarted = new OutboxRelay({ outbox: producer.outbox, stream: recording, logger: silent });
    expect(await restarted.runOnce()).toBe(1);
    expect(recording.results).toEqual([{ id, duplicate: false }, { id, duplicate: true }]);
    const marker = producer.send(1);
    await restarted.runOnce();
    await waitFor('the marker at the ledger', () => consumer.applied(marker) === 1);
    await consumption.stop();
    expect(consumer.deliveries.map((event) => event.id)).toEqual([id, marker]);
    expect(consumer.applied(id)).toBe(1);
    expect(await producer.outbox.pending(10)).toEqual([]);
  });

  test('past the duplicate window the copy reaches the consumer, which applies it once', async () => {
    const duplicateWindowMs = 250;
    const consumption = await setUp(duplicateWindowMs);
    const recording = recordingStream(stream);
    const id = producer.send(40);
    await expect(new OutboxRelay({ outbox: new DyingOutbox(producer.outbox, 1), stream: recording, logger: silent }).runOnce()).rejects.toThrow();
    await waitFor('the first delivery', () => consumer.deliveries.length === 1);
    // The relay comes back only after the stream has forgotten the id.
    await sleep(duplicateWindowMs * 4);
    expect(await new OutboxRelay({ outbox: producer.outbox, stream: recording, logger: silent }).runOnce()).toBe(1);
    expect(recording.results).toEqual([{ id, duplicate: false }, { id, duplicate: false }]);
    await waitFor('the second delivery', () => consumer.deliveries.length === 2);
    await consumption.stop();
    expect(consumer.deliveries.map((event) => event.id)).toEqual([id, id]);
    expect(consumer.rows()).toEqual([{ event_id: id, credit_units: 40 }]);
  });
});

describe('relaying through JetStream', () => {
  let admin: NatsConnection;
  const run = randomUUID();
  const streamName = `outbox_test_${run}`;
  const subject = `outbox-test.${run}.usage`;

  beforeAll(async () => {
    admin = await connect({ servers: natsUrl, name: 'outbox-test-admin' });
  });
  afterAll(async () => {
    await (await admin.jetstreamManager()).streams.delete(streamName).catch(() => false);
    await admin.close();
  });

  test('a relay started before the stream exists logs, retries, and publishes once the stream is there', async () => {
    const lateRun = randomUUID();
    const lateStream = `outbox_test_${lateRun}`;
    const producer = new SmsProducer(databaseFile(), `outbox-test.${lateRun}.usage`);
    const stream = await JetStreamEventStream.connect(natsUrl, 'outbox-test-late', silent);
    const warnings: string[] = [];
    const logger = createLogger({ service: 'outbox-test', level: 'warn', write: (line) => void warnings.push(line) });
    const relay = new OutboxRelay({ outbox: producer.outbox, stream, logger, intervalMs: 20, retryBackoff: { initialMs: 20, maxMs: 50 } });
    try {
      const id = producer.send(5);
      relay.start();
      await waitFor('two failed attempts', () => warnings.length >= 2);
      expect((await producer.outbox.pending(10)).map((event) => event.id)).toEqual([id]);
      await stream.ensureStream(lateStream, [`outbox-test.${lateRun}.>`]);
      await waitFor('the outbox to drain', () => (producer.db.prepare('SELECT COUNT(*) AS n FROM outbox WHERE published_at IS NULL').get() as { n: number }).n === 0);
      const info = await (await admin.jetstreamManager()).streams.info(lateStream);
      expect(info.state.messages).toBe(1);
    } finally {
      await relay.stop();
      await stream.close();
      producer.db.close();
      await (await admin.jetstreamManager()).streams.delete(lateStream).catch(() => false);
    }
  });

  test('20 concurrent senders, two pipelined relays on one outbox losing publishes and acks, two concurrent consumers: every event applied exactly once', async () => {
    // A stream of its own: the other tests' durables here must not see these events.
    const ownRun = randomUUID();
    const ownStream = `outbox_test_${ownRun}`;
    const ownSubject = `outbox-test.${ownRun}.usage`;
    const producer = new SmsProducer(databaseFile(), ownSubject);
    const consumer = new LedgerConsumer(databaseFile());
    const durable = 'ledger-concurrent';
    const producerStreams = [
      await JetStreamEventStream.connect(natsUrl, 'outbox-test-relay-1', silent),
      await JetStreamEventStream.connect(natsUrl, 'outbox-test-relay-2', silent),
    ];
    const consumerStreams = [
      await JetStreamEventStream.connect(natsUrl, 'outbox-test-consumer-1', silent),
      await JetStreamEventStream.connect(natsUrl, 'outbox-test-consumer-2', silent),
    ];
    const flaky = producerStreams.map((stream, i) => flakyStream(stream, 7 + i, 11 + i));
    // Two replicas of the producer: both relays read the same outbox and may publish the same event.
    const relays = flaky.map((stream) => new OutboxRelay({
      outbox: producer.outbox, stream, logger: silent, intervalMs: 50, batchSize: 25, maxInFlight: 8, retryBackoff: { initialMs: 10, maxMs: 40 },
    }));
    // A handler that yields before its transaction, so events really are in hand side by side.
    const handler = async (event: StreamEvent) => {
      await sleep(Math.random() * 5);
      await consumer.handler(event);
    };
    try {
      await producerStreams[0]!.ensureStream(ownStream, [`outbox-test.${ownRun}.>`]);
      const consumptions = await Promise.all(consumerStreams.map((stream) => stream.consume({
        stream: ownStream, durable, subjects: [ownSubject], handler, concurrency: 8, redeliveryBackoff: { initialMs: 20, maxMs: 100 },
      })));
      relays.forEach((relay) => relay.start());

      const expected = new Map<string, number>();
      const sender = async (senderIndex: number) => {
        for (let i = 0; i < 20; i += 1) {
          const credits = senderIndex * 100 + i + 1;
          expected.set(producer.send(credits), credits);
          relays.forEach((relay) => relay.wake());
          await sleep(Math.random() * 4);
        }
      };
      await Promise.all(Array.from({ length: 20 }, (_, index) => sender(index)));
      expect(expected.size).toBe(400);

      await waitFor('the outbox to drain', () => (producer.db.prepare('SELECT COUNT(*) AS n FROM outbox WHERE published_at IS NULL').get() as { n: number }).n === 0);
      await waitFor('400 events at the ledger', () => consumer.rows().length >= 400);
      // Whatever else was still on its way would show up here as a second row.
      await sleep(300);
      await Promise.all(relays.map((relay) => relay.stop()));
      await Promise.all(consumptions.map((consumption) => consumption.stop()));

      const rows = consumer.rows();
      expect(rows).toHaveLength(400);
      expect(new Set(rows.map((row) => row.event_id))).toEqual(new Set(expected.keys()));
      expect(rows.every((row) => expected.get(row.event_id) === row.credit_units)).toBe(true);
      // The failures really happened, on both relays.
      for (const stream of flaky) expect(Math.min(stream.failures.refused, stream.failures.acksLost)).toBeGreaterThan(0);
      const info = await (await admin.jetstreamManager()).consumers.info(ownStream, durable);
      expect([info.num_pending, info.num_ack_pending]).toEqual([0, 0]);
    } finally {
      await Promise.all(relays.map((relay) => relay.stop()));
      await Promise.all([...producerStreams, ...consumerStreams].map((stream) => stream.close()));
      await (await admin.jetstreamManager()).streams.delete(ownStream).catch(() => false);
      producer.db.close();
      consumer.db.close();
    }
  });

  test('200 events arrive exactly once at an idempotent consumer that is stopped in the middle and restarted, despite a relay crash', async () => {
    const producer = new SmsProducer(databaseFile(), subject);
    const consumer = new LedgerConsumer(databaseFile());
    const producerStream = await JetStreamEventStream.connect(natsUrl, 'outbox-test-producer', silent);
    let consumerStream = await JetStreamEventStream.connect(natsUrl, 'outbox-test-consumer', silent);
    const recording = recordingStream(producerStream);
    const dying = new DyingOutbox(producer.outbox, 3);
    const relay = new OutboxRelay({
      outbox: dying, stream: recording, logger: silent, intervalMs: 50, batchSize: 20, retryBackoff: { initialMs: 20, maxMs: 100 },
    });
    try {
      await producerStream.ensureStream(streamName, [`outbox-test.${run}.>`]);
      relay.start();
      const options = { stream: streamName, durable: 'ledger', subjects: [subject], handler: consumer.handler };
      let consumption = await consumerStream.consume(options);

      const expected = new Map<string, number>();
      const send = (from: number, to: number) => {
        for (let i = from; i <= to; i += 1) {
          expected.set(producer.send(i), i);
          relay.wake();
        }
      };
      send(1, 100);
      await waitFor('80 events at the ledger', () => consumer.rows().length >= 80);
      await consumption.stop();
      await consumerStream.close();
      send(101, 200);
      await waitFor('all 200 events in the stream while the consumer is down', () =>
        recording.results.filter((result) => !result.duplicate).length === 200);
      expect(consumer.rows().length).toBeLessThanOrEqual(100);

      consumerStream = await JetStreamEventStream.connect(natsUrl, 'outbox-test-consumer-restarted', silent);
      consumption = await consumerStream.consume(options);
      await waitFor('all 200 events at the ledger', () => consumer.rows().length >= 200);
      await waitFor('the outbox to drain', () => (producer.db.prepare('SELECT COUNT(*) AS n FROM outbox WHERE published_at IS NULL').get() as { n: number }).n === 0);
      await relay.stop();
      await consumption.stop();

      const rows = consumer.rows();
      expect(rows).toHaveLength(200);
      expect(new Set(rows.map((row) => row.event_id))).toEqual(new Set(expected.keys()));
      expect(rows.every((row) => expected.get(row.event_id) === row.credit_units)).toBe(true);
      expect((consumer.db.prepare('SELECT COUNT(*) AS n FROM processed_events').get() as { n: number }).n).toBe(200);
      // The relay crash made it publish a batch twice; the stream dropped those copies.
      expect(dying.calls).toBeGreaterThan(3);
      expect(recording.results.filter((result) => result.duplicate).length).toBeGreaterThan(0);
      expect(recording.results.filter((result) => !result.duplicate)).toHaveLength(200);
      // Nothing is left for the durable consumer: every event was acked.
      const info = await (await admin.jetstreamManager()).consumers.info(streamName, 'ledger');
      expect([info.num_pending, info.num_ack_pending]).toEqual([0, 0]);
    } finally {
      await relay.stop();
      await producerStream.close();
      await consumerStream.close();
      producer.db.close();
      consumer.db.close();
    }
  });
});
