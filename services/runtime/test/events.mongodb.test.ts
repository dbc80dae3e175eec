// MongoOutbox and MongoProcessedEvents against a real MongoDB replica set when MONGODB_URI is
// set (transactions need one); skipped otherwise, as no MongoDB server runs on this machine.
import { randomUUID } from 'node:crypto';
import type { Db } from 'mongodb';
import { createLogger } from '../src/logger.js';
import { connectMongo, type MongoHandle } from '../src/store/mongo/client.js';
import { nowIso } from '../src/time.js';
import type { StreamEvent } from '../src/events/event-stream.js';
import { InProcessEventStream } from '../src/events/in-process.js';
import { MongoOutbox } from '../src/store/mongo/outbox.js';
import { MongoProcessedEvents } from '../src/store/mongo/processed-events.js';
import { OutboxRelay } from '../src/events/relay.js';

// A *.mongodb.test.ts file runs only with MONGODB_URI set (jest.config.js).
const mongoUri = process.env.MONGODB_URI!;

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (payload: Uint8Array): string => new TextDecoder().decode(payload);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('MongoOutbox and MongoProcessedEvents', () => {
  const database = `voice-test-events-${process.pid}`;
  let handle: MongoHandle;
  let db: Db;
  let outbox: MongoOutbox;
  let processed: MongoProcessedEvents;
  let prefix: string;

  beforeAll(async () => {
    handle = await connectMongo(mongoUri, database);
    db = handle.db;
  });
  afterAll(async () => {
    await db.dropDatabase();
    await handle.close();
  });
  beforeEach(async () => {
    prefix = `t${randomUUID().slice(0, 8)}`;
    outbox = new MongoOutbox(db, `${prefix}_outbox`);
    processed = new MongoProcessedEvents(db, `${prefix}_processed`);
    await outbox.ensureIndexes();
    await processed.ensureIndexes();
  });

  /** The producer's business write and its event, in one transaction that may be made to fail. */
  async function send(body: string, fail = false): Promise<string> {
    const id = randomUUID();
    const session = handle.client.startSession();
    try {
      await session.withTransaction(async () => {
        await db.collection<{ _id: string; body: string }>(`${prefix}_sms`).insertOne({ _id: randomUUID(), body }, { session });
        await outbox.add({ id, subject: 'billing.usage.sms', payload: bytes(body) }, session);
        if (fail) throw new Error('carrier refused the message');
      });
    } finally {
      await session.endSession();
    }
    return id;
  }

  /** The consumer pattern: effect and processed id in one transaction. */
  async function apply(event: StreamEvent): Promise<void> {
    const session = handle.client.startSession();
    try {
      await session.withTransaction(async () => {
        if (await processed.seen(event.id, session)) return;
        await db.collection(`${prefix}_ledger`).insertOne({ event_id: event.id, body: text(event.payload) }, { session });
        await processed.record(event.id, nowIso(), session);
      });
    } finally {
      await session.endSession();
    }
  }

  const ledger = () => db.collection(`${prefix}_ledger`).find({}, { projection: { _id: 0, event_id: 1, body: 1 } }).toArray();

  test('add outside a transaction is refused', async () => {
    const session = handle.client.startSession();
    try {
      await expect(outbox.add({ id: randomUUID(), subject: 's', payload: bytes('x') }, session)).rejects.toThrow('inside the transaction');
    } finally {
      await session.endSession();
    }
  });

  test('an aborted transaction leaves no event; committed events are pending oldest first, payload intact', async () => {
    await expect(send('refused', true)).rejects.toThrow('carrier refused');
    expect(await db.collection(`${prefix}_sms`).countDocuments()).toBe(0);
    const first = await send('first');
    await sleep(2);
    const second = await send('second');
    const pending = await outbox.pending(10);
    expect(pending.map((event) => [event.id, event.subject, text(event.payload)])).toEqual([
      [first, 'billing.usage.sms', 'first'],
      [second, 'billing.usage.sms', 'second'],
    ]);
    expect(pending[0]!.payload).toBeInstanceOf(Uint8Array);
    expect(await outbox.pending(1)).toHaveLength(1);
  });

  test('markPublished keeps the first publication time; prune deletes only events published before the cut-off', async () => {
    const [a, b, c] = [await send('a'), await send('b'), await send('c')];
    await outbox.markPublished([a], '2026-01-01T00:00:00.000Z');
    await outbox.markPublished([a, b], '2026-01-03T00:00:00.000Z');
    expect((await outbox.pending(10)).map((event) => event.id)).toEqual([c]);
    expect(await outbox.prune('2026-01-02T00:00:00.000Z', 10)).toBe(1);
    const left = await db.collection(`${prefix}_outbox`).find({}, { projection: { published_at: 1 } }).sort({ created_at: 1 }).toArray();
    expect(left).toEqual([{ _id: b, published_at: '2026-01-03T00:00:00.000Z' }, { _id: c, published_at: null }]);
  });

  test('record outside a transaction is refused; prune forgets old ids', async () => {
    const session = handle.client.startSession();
    try {
      await expect(processed.record(randomUUID(), nowIso(), session)).rejects.toThrow('inside the transaction');
      const [oldest, old, recent] = [randomUUID(), randomUUID(), randomUUID()];
      await session.withTransaction(async () => {
        await processed.record(old, '2026-01-02T00:00:00.000Z', session);
        await processed.record(oldest, '2026-01-01T00:00:00.000Z', session);
        await processed.record(recent, '2026-03-01T00:00:00.000Z', session);
      });
      expect(await processed.prune('2026-02-01T00:00:00.000Z', 1)).toBe(1);
      expect([await processed.seen(oldest, session), await processed.seen(old, session)]).toEqual([false, true]);
      expect(await processed.prune('2026-02-01T00:00:00.000Z', 10)).toBe(1);
      expect([await processed.seen(old, session), await processed.seen(recent, session)]).toEqual([false, true]);
    } finally {
      await session.endSession();
    }
  });

  test('an event delivered twice, even concurrently, is applied once', async () => {
    const event = { id: randomUUID(), subject: 'billing.usage.sms', payload: bytes('once'), deliveryCount: 1 };
    // A racing copy may fail (and be redelivered); it never applies the effect a second time.
    const racing = await Promise.allSettled([apply(event), apply({ ...event, deliveryCount: 2 })]);
    expect(racing.some((outcome) => outcome.status === 'fulfilled')).toBe(true);
    await apply({ ...event, deliveryCount: 3 });
    expect(await ledger()).toEqual([{ event_id: event.id, body: 'once' }]);
  });

  test('relayed from the outbox after a crash between publish and mark, each event is applied once', async () => {
    let now = Date.now();
    const stream = new InProcessEventStream(createLogger({ service: 'events-test', level: 'silent' }), () => now);
    await stream.ensureStream('billing', ['billing.>'], { duplicateWindowMs: 1_000 });
    const deliveries: string[] = [];
    const consumption = await stream.consume({
      stream: 'billing', durable: 'ledger', subjects: ['billing.usage.>'],
      handler: async (event) => {
        deliveries.push(event.id);
        await apply(event);
      },
    });
    try {
      const ids = [await send('one'), await send('two')];
      let died = false;
      const dying = {
        pending: (limit: number) => outbox.pending(limit),
        markPublished: async () => {
          died = true;
          throw new Error('process died before marking the batch');
        },
      };
      await expect(new OutboxRelay({ outbox: dying, stream, logger: createLogger({ service: 't', level: 'silent' }) }).runOnce()).rejects.toThrow();
      expect(died).toBe(true);
      // The relay comes back after the stream's duplicate window, so the copies reach the consumer.
      now += 1_000;
      expect(await new OutboxRelay({ outbox, stream, logger: createLogger({ service: 't', level: 'silent' }) }).runOnce()).toBe(2);
      const deadline = Date.now() + 10_000;
      while (deliveries.length < 4 && Date.now() < deadline) await sleep(20);
      expect(deliveries.sort()).toEqual([...ids, ...ids].sort());
      expect((await ledger()).map((row) => row.event_id).sort()).toEqual([...ids].sort());
      expect(await outbox.pending(10)).toEqual([]);
    } finally {
      await consumption.stop();
      await stream.close();
    }
  });
});
