// Broadcast notices: the in-process notifier, and NATS between two connections to the real
// server at 127.0.0.1:4222 (running here and in CI).
import { randomUUID } from 'node:crypto';
import { InProcessNotifier, NatsNotifier, type Notifier } from '../src/nats/notifier.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (payload: Uint8Array): string => new TextDecoder().decode(payload);

describe('InProcessNotifier', () => {
  let notifier: InProcessNotifier;
  beforeEach(() => {
    notifier = new InProcessNotifier();
  });
  afterEach(() => notifier.close());

  test('every subscriber of the subject gets the notice, others do not', async () => {
    const first: string[] = [];
    const second: string[] = [];
    const other: string[] = [];
    notifier.subscribe('a.subject', (payload) => void first.push(text(payload)));
    notifier.subscribe('a.subject', (payload) => void second.push(text(payload)));
    notifier.subscribe('another.subject', (payload) => void other.push(text(payload)));
    await notifier.publish('a.subject', bytes('revoked'));
    expect(first).toEqual(['revoked']);
    expect(second).toEqual(['revoked']);
    expect(other).toEqual([]);
  });

  test('publish resolves only after asynchronous handlers finish', async () => {
    let done = false;
    notifier.subscribe('slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      done = true;
    });
    await notifier.publish('slow', bytes('x'));
    expect(done).toBe(true);
  });

  test('a failing handler fails the publish', async () => {
    notifier.subscribe('failing', async () => {
      throw new Error('handler broke');
    });
    await expect(notifier.publish('failing', bytes('x'))).rejects.toThrow('handler broke');
  });

  test('publishing without subscribers is fine', async () => {
    await expect(notifier.publish('nobody.listens', bytes('x'))).resolves.toBeUndefined();
  });

  test('unsubscribe stops only that handler', async () => {
    const kept: string[] = [];
    const dropped: string[] = [];
    notifier.subscribe('s', (payload) => void kept.push(text(payload)));
    const unsubscribe = notifier.subscribe('s', (payload) => void dropped.push(text(payload)));
    await notifier.publish('s', bytes('one'));
    unsubscribe();
    await notifier.publish('s', bytes('two'));
    expect(kept).toEqual(['one', 'two']);
    expect(dropped).toEqual(['one']);
  });

  test('close drops every subscription', async () => {
    const seen: string[] = [];
    notifier.subscribe('s', (payload) => void seen.push(text(payload)));
    await notifier.close();
    await notifier.publish('s', bytes('after close'));
    expect(seen).toEqual([]);
  });
});

describe('NatsNotifier (nats://127.0.0.1:4222)', () => {
  const url = 'nats://127.0.0.1:4222';
  // A subject of its own per run, so parallel runs on the same server do not see each other.
  const subject = `test.notifier.${randomUUID()}`;
  let publisher: Notifier;
  let subscriber: Notifier;

  beforeAll(async () => {
    publisher = await NatsNotifier.connect(url, 'notifier-test-publisher');
    subscriber = await NatsNotifier.connect(url, 'notifier-test-subscriber');
  });
  afterAll(async () => {
    await publisher.close();
    await subscriber.close();
  });

  /** The subscriber's SUB has reached the server once a publish of its own has been flushed. */
  const settle = () => subscriber.publish(`${subject}.settle`, bytes(''));

  /** Resolves with the first `count` payloads a subscription on `on` receives. */
  function receive(on: string, count: number): { received: Promise<string[]>; unsubscribe: () => void } {
    const seen: string[] = [];
    let unsubscribe: () => void = () => {};
    const received = new Promise<string[]>((resolve) => {
      unsubscribe = subscriber.subscribe(on, (payload) => {
        seen.push(text(payload));
        if (seen.length === count) resolve([...seen]);
      });
    });
    return { received, unsubscribe };
  }

  test('notices published by one connection reach the other, in order', async () => {
    const { received, unsubscribe } = receive(`${subject}.revoked`, 2);
    await settle();
    await publisher.publish(`${subject}.revoked`, bytes('first'));
    await publisher.publish(`${subject}.revoked`, bytes('second'));
    expect(await received).toEqual(['first', 'second']);
    unsubscribe();
  });

  test('binary payloads arrive unchanged', async () => {
    const payload = new Uint8Array([0, 1, 2, 250, 255]);
    let unsubscribe: () => void = () => {};
    const received = new Promise<Uint8Array>((resolve) => {
      unsubscribe = subscriber.subscribe(`${subject}.binary`, (data) => resolve(data));
    });
    await settle();
    await publisher.publish(`${subject}.binary`, payload);
    expect([...(await received)]).toEqual([...payload]);
    unsubscribe();
  });

  test('after unsubscribe nothing more arrives', async () => {
    const dropped: string[] = [];
    let firstArrived: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      firstArrived = resolve;
    });
    const unsubscribe = subscriber.subscribe(`${subject}.dropped`, (payload) => {
      dropped.push(text(payload));
      firstArrived();
    });
    const marker = receive(`${subject}.marker`, 1);
    await settle();
    await publisher.publish(`${subject}.dropped`, bytes('before'));
    await arrived;
    unsubscribe();
    await settle();
    await publisher.publish(`${subject}.dropped`, bytes('after'));
    // Messages from one publisher arrive in order, so once the marker is in, "after" would be too.
    await publisher.publish(`${subject}.marker`, bytes('marker'));
    expect(await marker.received).toEqual(['marker']);
    marker.unsubscribe();
    expect(dropped).toEqual(['before']);
  });

  test('a failing handler neither breaks the connection nor leaves an unhandled rejection', async () => {
    const own = await NatsNotifier.connect(url, 'notifier-test-failing');
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      own.subscribe(`${subject}.failing`, () => {
        throw new Error('synchronous failure');
      });
      own.subscribe(`${subject}.failing`, async () => {
        throw new Error('asynchronous failure');
      });
      const good: string[] = [];
      let done: () => void = () => {};
      const bothArrived = new Promise<void>((resolve) => {
        done = resolve;
      });
      own.subscribe(`${subject}.failing`, (payload) => {
        good.push(text(payload));
        if (good.length === 2) done();
      });
      await own.publish(`${subject}.settle`, bytes(''));
      await publisher.publish(`${subject}.failing`, bytes('one'));
      await publisher.publish(`${subject}.failing`, bytes('two'));
      await bothArrived;
      expect(good).toEqual(['one', 'two']);
      // The connection still works both ways.
      await expect(own.publish(`${subject}.settle`, bytes(''))).resolves.toBeUndefined();
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await own.close();
    }
  });
});
