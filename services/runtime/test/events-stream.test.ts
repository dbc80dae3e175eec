// The EventStream behaviour, written once and run against the in-process adapter and against
// JetStream on the real server at 127.0.0.1:4222; then what only one adapter does.
import { randomUUID } from 'node:crypto';
import { connect, nanos, type NatsConnection } from 'nats';
import { createLogger, type LogFields } from '../src/logger.js';
import type { Consumption, EventStream, StreamEvent, StreamEventHandler } from '../src/events/event-stream.js';
import { redeliveryDelayMs } from '../src/events/event-stream.js';
import { InProcessEventStream } from '../src/events/in-process.js';
import { JetStreamEventStream } from '../src/events/jetstream.js';
import { openConfiguredEventStream, openEventStream } from '../src/events/open.js';
import { subjectMatches, subjectsOverlap } from '../src/events/subject-match.js';
import { natsVersionAtLeast } from '../src/nats/connection.js';

const natsUrl = 'nats://127.0.0.1:4222';
const silent = createLogger({ service: 'events-test', level: 'silent' });
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (payload: Uint8Array): string => new TextDecoder().decode(payload);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fastRetry = { initialMs: 50, maxMs: 200 };

/** Polls until `condition` holds; fails the test with `what` after `timeoutMs`. */
async function waitFor(what: string, condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A handler that records every delivery; `fail` decides per delivery whether to reject it. */
function recorder(fail: (event: StreamEvent) => boolean = () => false) {
  const deliveries: StreamEvent[] = [];
  const handler: StreamEventHandler = async (event) => {
    deliveries.push({ ...event, payload: event.payload.slice() });
    if (fail(event)) throw new Error(`rejected ${event.id}`);
  };
  const ids = () => deliveries.map((event) => event.id);
  const has = (id: string) => ids().includes(id);
  return { deliveries, handler, ids, has };
}

interface Adapter {
  open(): Promise<EventStream>;
  /** What a process restart does to the stream: JetStream reconnects, in-process keeps the instance. */
  reopen(current: EventStream): Promise<EventStream>;
  /** Every stream name the suite created, for cleanup. */
  created: string[];
  /**
   * Whether a refused event's redelivery comes once, counted, after the back-off. A NATS server before
   * 2.10.16 (our machines run 2.9) can hand a delivery that met an expiring pull out again as a new one
   * (count 1) and hold the events behind it meanwhile (nats-server #5305, #5338, April 2024).
   */
  ordersRedeliveries(): boolean;
}


function eventStreamBehaviour(adapter: Adapter): void {
  let stream: EventStream;
  let streamName: string;
  let base: string;
  const consumptions: Consumption[] = [];

  beforeEach(async () => {
    const run = randomUUID();
    streamName = `events_test_${run}`;
    base = `events-test.${run}`;
    stream = await adapter.open();
    await stream.ensureStream(streamName, [`${base}.>`], { duplicateWindowMs: 60_000 });
    adapter.created.push(streamName);
  });
  afterEach(async () => {
    await Promise.all(consumptions.splice(0).map((consumption) => consumption.stop()));
    await stream.close();
  });

  const consume = async (durable: string, handler: StreamEventHandler, subjects = [`${base}.>`], extra = {}) => {
    const consumption = await stream.consume({ stream: streamName, durable, subjects, handler, redeliveryBackoff: fastRetry, ...extra });
    consumptions.push(consumption);
    return consumption;
  };
  const stopAll = () => Promise.all(consumptions.splice(0).map((consumption) => consumption.stop()));

  test('events published before the consumer existed arrive in order, whole, once each, then are acked', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const [i, id] of ids.entries()) await stream.publish(`${base}.sms`, bytes(`event ${i}`), id);
    const seen = recorder();
    await consume('billing', seen.handler);
    await waitFor('three events', () => seen.deliveries.length >= 3);
    expect(seen.ids()).toEqual(ids);
    expect(seen.deliveries.map((event) => text(event.payload))).toEqual(['event 0', 'event 1', 'event 2']);
    expect(seen.deliveries.every((event) => event.subject === `${base}.sms` && event.deliveryCount === 1)).toBe(true);
    // Acked events do not come back: a later marker arrives alone.
    const marker = randomUUID();
    await stream.publish(`${base}.sms`, bytes('marker'), marker);
    await waitFor('the marker', () => seen.has(marker));
    expect(seen.ids()).toEqual([...ids, marker]);
  });

  test('every delivery says when the stream stored the event', async () => {
    const seen = recorder();
    await consume('stored-at', seen.handler);
    const before = Date.now();
    await stream.publish(`${base}.sms`, bytes('timed'), randomUUID());
    const after = Date.now();
    await waitFor('the event', () => seen.deliveries.length === 1);
    const storedAt = seen.deliveries[0]!.storedAt!.getTime();
    // JetStream's clock is the server's, on this machine; a millisecond of rounding either way.
    expect(storedAt).toBeGreaterThanOrEqual(before - 1);
    expect(storedAt).toBeLessThanOrEqual(after + 1);
  });

  test('binary payloads arrive unchanged', async () => {
    const payload = new Uint8Array([0, 1, 2, 127, 128, 250, 255]);
    const seen = recorder();
    await consume('binary', seen.handler);
    await stream.publish(`${base}.binary`, payload, randomUUID());
    await waitFor('the event', () => seen.deliveries.length === 1);
    expect([...seen.deliveries[0]!.payload]).toEqual([...payload]);
  });

  test('the same event id published twice is stored and delivered once', async () => {
    const id = randomUUID();
    expect(await stream.publish(`${base}.sms`, bytes('first copy'), id)).toEqual({ duplicate: false });
    expect(await stream.publish(`${base}.sms`, bytes('second copy'), id)).toEqual({ duplicate: true });
    const marker = randomUUID();
    await stream.publish(`${base}.sms`, bytes('marker'), marker);
    const seen = recorder();
    await consume('dedup', seen.handler);
    await waitFor('the marker', () => seen.has(marker));
    expect(seen.ids()).toEqual([id, marker]);
    expect(text(seen.deliveries[0]!.payload)).toBe('first copy');
  });

  test('a handler that rejects gets the event again, with a rising delivery count, until it succeeds', async () => {
    const id = randomUUID();
    const seen = recorder((event) => event.id === id && event.deliveryCount < 3);
    await consume('flaky', seen.handler);
    await stream.publish(`${base}.sms`, bytes('retry me'), id);
    await waitFor('the third delivery', () => seen.deliveries.length >= 3);
    expect(seen.deliveries.map((event) => [event.id, event.deliveryCount])).toEqual([[id, 1], [id, 2], [id, 3]]);
    const marker = randomUUID();
    await stream.publish(`${base}.sms`, bytes('marker'), marker);
    await waitFor('the marker', () => seen.has(marker));
    await sleep(fastRetry.maxMs * 3);
    expect(seen.ids()).toEqual([id, id, id, marker]);
  });

  test('a rejected event does not hold back the events behind it', async () => {
    const stuck = randomUUID();
    const next = randomUUID();
    const seen = recorder((event) => event.id === stuck);
    await consume('not-blocking', seen.handler, [`${base}.>`], { redeliveryBackoff: { initialMs: 1_000, maxMs: 1_000 } });
    await stream.publish(`${base}.sms`, bytes('stuck'), stuck);
    await stream.publish(`${base}.sms`, bytes('next'), next);
    // Refused every time: a consumer that waited for it would never get to the next event.
    await waitFor('the next event and a redelivery of the refused one', () => seen.has(next) && seen.ids().filter((id) => id === stuck).length >= 2);
    if (adapter.ordersRedeliveries()) {
      expect(seen.deliveries.slice(0, 3).map((event) => [event.id, event.deliveryCount])).toEqual([[stuck, 1], [next, 1], [stuck, 2]]);
    }
  });

  test('after maxDeliver failed deliveries the event is given up', async () => {
    const poison = randomUUID();
    const seen = recorder((event) => event.id === poison);
    await consume('bounded', seen.handler, [`${base}.>`], { maxDeliver: 2 });
    await stream.publish(`${base}.sms`, bytes('poison'), poison);
    await waitFor('two deliveries', () => seen.deliveries.length >= 2);
    const marker = randomUUID();
    await stream.publish(`${base}.sms`, bytes('marker'), marker);
    await waitFor('the marker', () => seen.has(marker));
    await sleep(fastRetry.maxMs * 3);
    expect(seen.deliveries.map((event) => [event.id, event.deliveryCount])).toEqual([[poison, 1], [poison, 2], [marker, 1]]);
  });

  test('a durable consumer resumes where it stopped, across a restart', async () => {
    const before = [randomUUID(), randomUUID()];
    for (const id of before) await stream.publish(`${base}.sms`, bytes('before'), id);
    const first = recorder();
    await consume('resumable', first.handler);
    await waitFor('the first two', () => first.deliveries.length === 2);
    await stopAll();
    const during = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of during) await stream.publish(`${base}.sms`, bytes('while stopped'), id);
    expect(first.ids()).toEqual(before);

    stream = await adapter.reopen(stream);
    const second = recorder();
    await consume('resumable', second.handler);
    await waitFor('the events published while stopped', () => second.deliveries.length >= 3);
    const marker = randomUUID();
    await stream.publish(`${base}.sms`, bytes('marker'), marker);
    await waitFor('the marker', () => second.has(marker));
    expect(second.ids()).toEqual([...during, marker]);
    expect(second.deliveries.every((event) => event.deliveryCount === 1)).toBe(true);
  });

  test('stop waits for the event in hand, which is then acked', async () => {
    const id = randomUUID();
    let release: () => void = () => {};
    const blocked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handled: string[] = [];
    let inHand = false;
    const consumption = await consume('graceful', async (event) => {
      inHand = true;
      await blocked;
      handled.push(event.id);
    });
    await stream.publish(`${base}.sms`, bytes('slow'), id);
    await waitFor('the handler to start', () => inHand);
    let stopped = false;
    const stopping = consumption.stop().then(() => {
      stopped = true;
    });
    await sleep(100);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(handled).toEqual([id]);

    stream = await adapter.reopen(stream);
    const again = recorder();
    await consume('graceful', again.handler);
    const marker = randomUUID();
    await stream.publish(`${base}.sms`, bytes('marker'), marker);
    await waitFor('the marker', () => again.has(marker));
    expect(again.ids()).toEqual([marker]);
  });

  test('each durable has its own position and sees only its subjects', async () => {
    const sms = randomUUID();
    const call = randomUUID();
    const everything = recorder();
    const smsOnly = recorder();
    await consume('everything', everything.handler);
    await consume('sms-only', smsOnly.handler, [`${base}.sms`]);
    await stream.publish(`${base}.sms`, bytes('sms'), sms);
    await stream.publish(`${base}.call`, bytes('call'), call);
    await waitFor('both events at the first consumer', () => everything.deliveries.length === 2);
    const marker = randomUUID();
    await stream.publish(`${base}.sms`, bytes('marker'), marker);
    await waitFor('the marker at both consumers', () => smsOnly.has(marker) && everything.has(marker));
    expect(everything.ids()).toEqual([sms, call, marker]);
    expect(smsOnly.ids()).toEqual([sms, marker]);
  });

  test('two consumers with one durable name share the work: each event goes to one of them', async () => {
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const left = recorder();
    const right = recorder();
    await consume('shared', left.handler);
    await consume('shared', right.handler);
    for (const id of ids) await stream.publish(`${base}.sms`, bytes('work'), id);
    await waitFor('all events', () => left.deliveries.length + right.deliveries.length >= ids.length);
    await sleep(200);
    expect([...left.ids(), ...right.ids()].sort()).toEqual([...ids].sort());
  });
}

describe('InProcessEventStream', () => {
  eventStreamBehaviour({
    open: async () => new InProcessEventStream(silent),
    reopen: async (current) => current,
    created: [],
    ordersRedeliveries: () => true,
  });

  test('publishing to a subject no stream holds fails', async () => {
    const stream = new InProcessEventStream(silent);
    await stream.ensureStream('only', ['billing.usage.>']);
    await expect(stream.publish('elsewhere.usage', bytes('x'), randomUUID())).rejects.toThrow('no stream holds subject');
    await stream.close();
  });

  test('streams may not claim overlapping subjects; ensureStream again with the same name updates it', async () => {
    const stream = new InProcessEventStream(silent);
    await stream.ensureStream('first', ['billing.usage.>']);
    await expect(stream.ensureStream('second', ['billing.*.sms'])).rejects.toThrow('overlaps with stream first');
    await stream.ensureStream('first', ['billing.usage.>', 'billing.refunds']);
    await expect(stream.publish('billing.refunds', bytes('x'), randomUUID())).resolves.toEqual({ duplicate: false });
    await stream.close();
  });

  test('consuming from a stream that does not exist fails', async () => {
    const stream = new InProcessEventStream(silent);
    await expect(stream.consume({ stream: 'missing', durable: 'd', subjects: ['a.>'], handler: async () => {} })).rejects.toThrow('not found');
    await stream.close();
  });

  test('an event id is a duplicate only within the duplicate window', async () => {
    let now = Date.parse('2026-01-01T00:00:00.000Z');
    const stream = new InProcessEventStream(silent, () => now);
    await stream.ensureStream('window', ['window.>'], { duplicateWindowMs: 1_000 });
    const id = randomUUID();
    expect(await stream.publish('window.a', bytes('1'), id)).toEqual({ duplicate: false });
    now += 999;
    expect(await stream.publish('window.a', bytes('2'), id)).toEqual({ duplicate: true });
    now += 1;
    expect(await stream.publish('window.a', bytes('3'), id)).toEqual({ duplicate: false });
    await stream.close();
  });

  test('events older than the maximum age leave the stream', async () => {
    let now = Date.parse('2026-01-01T00:00:00.000Z');
    const stream = new InProcessEventStream(silent, () => now);
    await stream.ensureStream('aging', ['aging.>'], { maxAgeMs: 10_000, duplicateWindowMs: 1_000 });
    const old = randomUUID();
    await stream.publish('aging.a', bytes('old'), old);
    now += 10_000;
    const fresh = randomUUID();
    await stream.publish('aging.a', bytes('fresh'), fresh);
    const seen = recorder();
    const consumption = await stream.consume({ stream: 'aging', durable: 'late', subjects: ['aging.>'], handler: seen.handler });
    await waitFor('the fresh event', () => seen.has(fresh));
    expect(seen.ids()).toEqual([fresh]);
    await consumption.stop();
    await stream.close();
  });
});

describe('JetStreamEventStream (nats://127.0.0.1:4222)', () => {
  const created: string[] = [];
  let admin: NatsConnection;
  beforeAll(async () => {
    admin = await connect({ servers: natsUrl, name: 'events-test-admin' });
  });
  afterAll(async () => {
    const manager = await admin.jetstreamManager();
    for (const name of created) await manager.streams.delete(name).catch(() => false);
    await admin.close();
  });

  const open = () => JetStreamEventStream.connect(natsUrl, 'events-test', silent);
  eventStreamBehaviour({
    open,
    reopen: async (current) => {
      await current.close();
      return open();
    },
    created,
    // 2.10.16: the fixes of failed deliveries' counts are in.
    ordersRedeliveries: () => natsVersionAtLeast(admin.info?.version, [2, 10, 16]),
  });

  test('ensureStream is idempotent, updates limits, and the stream is file-backed with limits retention', async () => {
    const name = `events_test_${randomUUID()}`;
    const subject = `events-test.${randomUUID()}`;
    created.push(name);
    const stream = await open();
    try {
      await stream.ensureStream(name, [`${subject}.>`], { duplicateWindowMs: 30_000, maxAgeMs: 3_600_000 });
      await stream.ensureStream(name, [`${subject}.>`], { duplicateWindowMs: 30_000, maxAgeMs: 3_600_000 });
      await stream.ensureStream(name, [`${subject}.>`, `${subject}-more.>`], { duplicateWindowMs: 45_000, maxAgeMs: 3_600_000 });
      const info = await (await admin.jetstreamManager()).streams.info(name);
      expect(info.config.subjects).toEqual([`${subject}.>`, `${subject}-more.>`]);
      expect(info.config.duplicate_window).toBe(nanos(45_000));
      expect(info.config.max_age).toBe(nanos(3_600_000));
      expect(info.config.storage).toBe('file');
      expect(info.config.retention).toBe('limits');
    } finally {
      await stream.close();
    }
  });

  test('publishing to a subject no stream holds fails', async () => {
    const stream = await open();
    try {
      await expect(stream.publish(`events-test.nostream.${randomUUID()}`, bytes('x'), randomUUID())).rejects.toThrow();
    } finally {
      await stream.close();
    }
  });

  test('the durable consumer is explicit-ack with the given ack wait and delivery limit', async () => {
    const name = `events_test_${randomUUID()}`;
    const subject = `events-test.${randomUUID()}`;
    created.push(name);
    const stream = await open();
    try {
      await stream.ensureStream(name, [`${subject}.>`]);
      const consumption = await stream.consume({
        stream: name, durable: 'configured', subjects: [`${subject}.a`], handler: async () => {}, ackWaitMs: 12_000, maxDeliver: 7,
      });
      await consumption.stop();
      const info = await (await admin.jetstreamManager()).consumers.info(name, 'configured');
      expect(info.config.durable_name).toBe('configured');
      expect(info.config.ack_policy).toBe('explicit');
      expect(info.config.ack_wait).toBe(nanos(12_000));
      expect(info.config.max_deliver).toBe(7);
      expect(info.config.filter_subject).toBe(`${subject}.a`);
    } finally {
      await stream.close();
    }
  });

  test('an event held by a consumer that died without acking comes back after the ack wait', async () => {
    const name = `events_test_${randomUUID()}`;
    const subject = `events-test.${randomUUID()}`;
    created.push(name);
    let stream = await open();
    try {
      await stream.ensureStream(name, [`${subject}.>`]);
      const options = { stream: name, durable: 'survivor', subjects: [`${subject}.>`], ackWaitMs: 1_000, redeliveryBackoff: fastRetry };
      await (await stream.consume({ ...options, handler: async () => {} })).stop();
      const id = randomUUID();
      await stream.publish(`${subject}.sms`, bytes('held'), id);
      // The dying process: takes the event from the durable consumer and vanishes without an ack.
      const dying = await connect({ servers: natsUrl, name: 'events-test-dying' });
      const held = await (await dying.jetstream().consumers.get(name, 'survivor')).next({ expires: 5_000 });
      expect(held?.headers?.get('Nats-Msg-Id')).toBe(id);
      await dying.close();

      await stream.close();
      stream = await open();
      const seen = recorder();
      const consumption = await stream.consume({ ...options, handler: seen.handler });
      await waitFor('the redelivery', () => seen.deliveries.length === 1);
      await consumption.stop();
      expect(seen.deliveries.map((event) => [event.id, event.deliveryCount])).toEqual([[id, 2]]);
    } finally {
      await stream.close();
    }
  });

  test('a handler that works longer than the ack wait keeps its event: no second delivery meanwhile', async () => {
    const name = `events_test_${randomUUID()}`;
    const subject = `events-test.${randomUUID()}`;
    created.push(name);
    const stream = await open();
    try {
      await stream.ensureStream(name, [`${subject}.>`]);
      const deliveries: number[] = [];
      const slow = async (event: StreamEvent) => {
        deliveries.push(event.deliveryCount);
        await sleep(2_500);
      };
      const options = { stream: name, durable: 'slow', subjects: [`${subject}.>`], ackWaitMs: 1_000, handler: slow };
      // Two consumers share the durable: if the server thought the event abandoned, the idle one would get it.
      const consumptions = [await stream.consume(options), await stream.consume(options)];
      await stream.publish(`${subject}.sms`, bytes('slow'), randomUUID());
      await waitFor('the slow handler to start', () => deliveries.length >= 1);
      await sleep(3_500);
      await Promise.all(consumptions.map((consumption) => consumption.stop()));
      expect(deliveries).toEqual([1]);
    } finally {
      await stream.close();
    }
  });

  test('with concurrency, up to that many events are in hand at once, each acked after its own handler, a failed one redelivered', async () => {
    const name = `events_test_${randomUUID()}`;
    const subject = `events-test.${randomUUID()}`;
    created.push(name);
    const stream = await open();
    try {
      await stream.ensureStream(name, [`${subject}.>`]);
      const ids = Array.from({ length: 40 }, () => randomUUID());
      const failOnce = ids[3]!;
      let inHand = 0;
      let mostInHand = 0;
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const handled: string[] = [];
      const deliveries: [string, number][] = [];
      const handler = async (event: StreamEvent) => {
        deliveries.push([event.id, event.deliveryCount]);
        inHand += 1;
        mostInHand = Math.max(mostInHand, inHand);
        try {
          await gate;
          await sleep(Math.random() * 10);
          if (event.id === failOnce && event.deliveryCount === 1) throw new Error('first delivery fails');
          handled.push(event.id);
        } finally {
          inHand -= 1;
        }
      };
      for (const id of ids) await stream.publish(`${subject}.sms`, bytes('work'), id);
      const consumption = await stream.consume({
        stream: name, durable: 'parallel', subjects: [`${subject}.>`], handler, concurrency: 5, redeliveryBackoff: fastRetry,
      });
      await waitFor('five events in hand', () => inHand === 5);
      await sleep(100);
      // Nothing is acked while every handler waits.
      let info = await (await admin.jetstreamManager()).consumers.info(name, 'parallel');
      expect(info.num_ack_pending).toBeGreaterThanOrEqual(5);
      expect(inHand).toBe(5);
      release();
      await waitFor('every event handled', () => new Set(handled).size === ids.length);
      await consumption.stop();
      expect(mostInHand).toBe(5);
      expect([...handled].sort()).toEqual([...ids].sort());
      expect(handled).toHaveLength(ids.length);
      expect(deliveries.filter(([id]) => id === failOnce).map(([, count]) => count)).toEqual([1, 2]);
      info = await (await admin.jetstreamManager()).consumers.info(name, 'parallel');
      expect([info.num_pending, info.num_ack_pending, info.num_redelivered]).toEqual([0, 0, 0]);
    } finally {
      await stream.close();
    }
  });

  test('the next pull goes out while the handlers of the last batch still run: an event stored meanwhile is handled at once', async () => {
    const name = `events_test_${randomUUID()}`;
    const subject = `events-test.${randomUUID()}`;
    created.push(name);
    const stream = await open();
    try {
      await stream.ensureStream(name, [`${subject}.>`]);
      const [slow, later] = [randomUUID(), randomUUID()];
      let laterHandled = false;
      let slowFinishedFirst: boolean | undefined;
      const handler = async (event: StreamEvent) => {
        if (event.id === later) {
          laterHandled = true;
          return;
        }
        // Holds its slot until the later event was handled (or gives up after 5 s).
        const deadline = Date.now() + 5_000;
        while (!laterHandled && Date.now() < deadline) await sleep(20);
        slowFinishedFirst ??= !laterHandled;
      };
      await stream.publish(`${subject}.sms`, bytes('slow'), slow);
      const consumption = await stream.consume({ stream: name, durable: 'pipelined', subjects: [`${subject}.>`], handler, concurrency: 2 });
      // Stored after the pull that delivered the slow event has run out (1 s), while its handler still runs.
      await sleep(1_500);
      await stream.publish(`${subject}.sms`, bytes('later'), later);
      await waitFor('both events handled', () => slowFinishedFirst !== undefined);
      await consumption.stop();
      expect(slowFinishedFirst).toBe(false);
    } finally {
      await stream.close();
    }
  });

  test('a consumer of several subjects gets exactly those (server-side or client-side filter)', async () => {
    const name = `events_test_${randomUUID()}`;
    const subject = `events-test.${randomUUID()}`;
    created.push(name);
    const stream = await open();
    try {
      await stream.ensureStream(name, [`${subject}.>`]);
      const seen = recorder();
      const consumption = await stream.consume({
        stream: name, durable: 'several', subjects: [`${subject}.sms`, `${subject}.call`], handler: seen.handler, redeliveryBackoff: fastRetry,
      });
      const ids = { sms: randomUUID(), other: randomUUID(), call: randomUUID() };
      await stream.publish(`${subject}.sms`, bytes('sms'), ids.sms);
      await stream.publish(`${subject}.other`, bytes('other'), ids.other);
      await stream.publish(`${subject}.call`, bytes('call'), ids.call);
      await waitFor('both wanted events', () => seen.deliveries.length >= 2);
      await consumption.stop();
      expect(seen.ids()).toEqual([ids.sms, ids.call]);
    } finally {
      await stream.close();
    }
  });
});

describe('openEventStream', () => {
  test('without a NATS URL it is in-process, with one it is JetStream', async () => {
    const local = await openEventStream(undefined, 'events-test');
    expect(local).toBeInstanceOf(InProcessEventStream);
    await local.close();
    const remote = await openEventStream(natsUrl, 'events-test', silent);
    expect(remote).toBeInstanceOf(JetStreamEventStream);
    await remote.close();
  });
});

describe('handler failures are logged with the event id', () => {
  test('a warning names the event and the retry delay', async () => {
    const lines: LogFields[] = [];
    const logger = createLogger({ service: 'events-test', level: 'warn', write: (line) => void lines.push(JSON.parse(line) as LogFields) });
    const stream = new InProcessEventStream(logger);
    await stream.ensureStream('logged', ['logged.>']);
    const id = randomUUID();
    const seen = recorder((event) => event.deliveryCount === 1);
    const consumption = await stream.consume({ stream: 'logged', durable: 'd', subjects: ['logged.>'], handler: seen.handler, redeliveryBackoff: fastRetry });
    await stream.publish('logged.a', bytes('x'), id);
    await waitFor('the redelivery', () => seen.deliveries.length === 2);
    await consumption.stop();
    await stream.close();
    expect(lines).toEqual([
      expect.objectContaining({ level: 'warn', msg: 'event handler failed; redelivering later', eventId: id, deliveryCount: 1, retryInMs: 50 }),
    ]);
  });
});

describe('limits, subjects and backoff', () => {
  test('stream limits JetStream would reject or misread are refused by both adapters', async () => {
    const local = new InProcessEventStream(silent);
    const remote = await JetStreamEventStream.connect(natsUrl, 'events-test', silent);
    try {
      for (const stream of [local, remote]) {
        await expect(stream.ensureStream('bad', ['bad.>'], { duplicateWindowMs: 0 })).rejects.toThrow('duplicateWindowMs must be positive');
        await expect(stream.ensureStream('bad', ['bad.>'], { duplicateWindowMs: 2_000, maxAgeMs: 1_000 })).rejects.toThrow('at least duplicateWindowMs');
        await expect(stream.ensureStream('bad', ['bad.>'], { replicas: 0 })).rejects.toThrow('replicas');
      }
    } finally {
      await local.close();
      await remote.close();
    }
  });

  test('the configured replica count reaches JetStream (a single server refuses more than one copy)', async () => {
    const name = `replicas_${randomUUID().slice(0, 8)}`;
    const single = await openConfiguredEventStream({ natsUrl, eventNamespace: undefined, natsReplicas: 1 }, 'events-test', silent);
    const three = await openConfiguredEventStream({ natsUrl, eventNamespace: undefined, natsReplicas: 3 }, 'events-test', silent);
    const admin = await connect({ servers: natsUrl, name: 'events-test-admin' });
    try {
      await expect(three.ensureStream(name, [`${name}.>`])).rejects.toThrow(/replica/i);
      await single.ensureStream(name, [`${name}.>`]);
      const manager = await admin.jetstreamManager();
      expect((await manager.streams.info(name)).config.num_replicas).toBe(1);
      await manager.streams.delete(name);
    } finally {
      await Promise.all([single.close(), three.close(), admin.close()]);
    }
  });

  test('consume options that would lose events or never redeliver them are refused by both adapters', async () => {
    const local = new InProcessEventStream(silent);
    const remote = await JetStreamEventStream.connect(natsUrl, 'events-test', silent);
    const handler = async () => {};
    try {
      for (const stream of [local, remote]) {
        const base = { stream: 'any', durable: 'd', subjects: ['a.>'], handler };
        await expect(stream.consume({ ...base, subjects: [] })).rejects.toThrow('at least one subject');
        await expect(stream.consume({ ...base, ackWaitMs: 0 })).rejects.toThrow('ackWaitMs must be positive');
        await expect(stream.consume({ ...base, maxDeliver: 0 })).rejects.toThrow('maxDeliver must be a positive integer');
        await expect(stream.consume({ ...base, concurrency: 0 })).rejects.toThrow('concurrency must be a positive integer');
        await expect(stream.consume({ ...base, concurrency: 1.5 })).rejects.toThrow('concurrency must be a positive integer');
      }
    } finally {
      await local.close();
      await remote.close();
    }
  });

  test('subject patterns match like NATS', () => {
    expect(subjectMatches('billing.usage.>', 'billing.usage.sms')).toBe(true);
    expect(subjectMatches('billing.usage.>', 'billing.usage.sms.outbound')).toBe(true);
    expect(subjectMatches('billing.usage.>', 'billing.usage')).toBe(false);
    expect(subjectMatches('billing.*.sms', 'billing.usage.sms')).toBe(true);
    expect(subjectMatches('billing.*.sms', 'billing.usage.call')).toBe(false);
    expect(subjectMatches('billing.usage', 'billing.usage.sms')).toBe(false);
    expect(subjectsOverlap('billing.>', 'billing.usage.*')).toBe(true);
    expect(subjectsOverlap('billing.*', 'billing.usage.sms')).toBe(false);
    expect(subjectsOverlap('billing.a', 'billing.b')).toBe(false);
    expect(subjectsOverlap('billing.>', 'billing')).toBe(false);
  });

  test('NATS versions compare part by part, an unknown one as too old', () => {
    expect(['2.9.10', '2.10.0', '2.10.15', '2.10.16', '2.10.16-beta', '2.11.0', '3.0.0', '', undefined].map((version) => natsVersionAtLeast(version, [2, 10, 16])))
      .toEqual([false, false, false, true, true, true, true, false, false]);
    expect(natsVersionAtLeast('2.10.0', [2, 10, 0])).toBe(true);
  });

  test('redelivery delays double up to the maximum', () => {
    const backoff = { initialMs: 100, maxMs: 1_000 };
    expect([1, 2, 3, 4, 5, 100].map((count) => redeliveryDelayMs(count, backoff))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });
});
