// The outbox relay's own rules, against an outbox and a stream kept in memory: order,
// partial failures, backoff without crashing, wake-ups and a graceful stop.
import { createLogger, type LogFields } from '../src/logger.js';
import type { PublishResult } from '../src/events/event-stream.js';
import type { OutboxEvent, OutboxReader } from '../src/events/outbox.js';
import { OutboxRelay } from '../src/events/relay.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

class MemoryOutbox implements OutboxReader {
  readonly events: (OutboxEvent & { publishedAt: string | null })[] = [];

  add(id: string): void {
    this.events.push({ id, subject: `usage.${id}`, payload: new TextEncoder().encode(id), createdAt: '2026-01-01T00:00:00.000Z', publishedAt: null });
  }

  async pending(limit: number): Promise<OutboxEvent[]> {
    return this.events.filter((event) => event.publishedAt === null).slice(0, limit);
  }

  async markPublished(ids: string[], at: string): Promise<void> {
    for (const event of this.events) if (ids.includes(event.id)) event.publishedAt = at;
  }

  unpublished(): string[] {
    return this.events.filter((event) => event.publishedAt === null).map((event) => event.id);
  }
}

class RecordingStream {
  readonly published: string[] = [];
  readonly attempted: string[] = [];
  failWith: Error | undefined;
  failOn: string | undefined;
  gate: Promise<void> | undefined;
  attempts = 0;
  inFlight = 0;
  mostInFlight = 0;

  async publish(subject: string, _payload: Uint8Array, eventId: string): Promise<PublishResult> {
    this.attempts += 1;
    this.attempted.push(eventId);
    this.inFlight += 1;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    try {
      await this.gate;
      if (this.failWith || this.failOn === eventId) throw this.failWith ?? new Error(`cannot publish ${eventId}`);
      expect(subject).toBe(`usage.${eventId}`);
      this.published.push(eventId);
      return { duplicate: false };
    } finally {
      this.inFlight -= 1;
    }
  }
}

const silent = createLogger({ service: 'relay-test', level: 'silent' });
const at = '2026-02-02T10:00:00.000Z';

describe('OutboxRelay', () => {
  let outbox: MemoryOutbox;
  let stream: RecordingStream;
  const relays: OutboxRelay[] = [];
  const relay = (options: Partial<ConstructorParameters<typeof OutboxRelay>[0]> = {}) => {
    const created = new OutboxRelay({ outbox, stream, logger: silent, clock: () => at, ...options });
    relays.push(created);
    return created;
  };

  beforeEach(() => {
    outbox = new MemoryOutbox();
    stream = new RecordingStream();
  });
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((created) => created.stop()));
  });

  test('runOnce publishes every pending event in order, batch by batch, and marks them published', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    ids.forEach((id) => outbox.add(id));
    expect(await relay({ batchSize: 2 }).runOnce()).toBe(5);
    expect(stream.published).toEqual(ids);
    expect(outbox.events.map((event) => event.publishedAt)).toEqual(ids.map(() => at));
    expect(await relay().runOnce()).toBe(0);
    expect(stream.published).toEqual(ids);
  });

  test('publishes go out in outbox order, at most maxInFlight awaiting their acks, and are marked only once acked', async () => {
    const ids = Array.from({ length: 10 }, (_, i) => `e${i}`);
    ids.forEach((id) => outbox.add(id));
    let release: () => void = () => {};
    stream.gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const running = relay({ maxInFlight: 3 }).runOnce();
    await waitFor('the first window', () => stream.attempts === 3);
    await sleep(20);
    // Nothing acked yet: no fourth publish, nothing marked.
    expect(stream.attempted).toEqual(['e0', 'e1', 'e2']);
    expect(outbox.unpublished()).toEqual(ids);
    release();
    expect(await running).toBe(10);
    expect(stream.attempted).toEqual(ids);
    expect(stream.mostInFlight).toBe(3);
    expect(outbox.unpublished()).toEqual([]);
  });

  test('a failed publish stays pending while the acknowledged ones around it are marked; nothing new starts after it', async () => {
    ['a', 'b', 'c'].forEach((id) => outbox.add(id));
    stream.failOn = 'b';
    await expect(relay().runOnce()).rejects.toThrow('cannot publish b');
    // a and c were in flight beside b, and acked.
    expect([...stream.published].sort()).toEqual(['a', 'c']);
    expect(outbox.unpublished()).toEqual(['b']);
    stream.failOn = undefined;
    await relay().runOnce();
    expect(stream.published.slice(2)).toEqual(['b']);
    expect(outbox.unpublished()).toEqual([]);

    // One at a time, nothing after the failed event is even tried.
    ['d', 'e', 'f'].forEach((id) => outbox.add(id));
    stream.failOn = 'e';
    await expect(relay({ maxInFlight: 1 }).runOnce()).rejects.toThrow('cannot publish e');
    expect(stream.attempted.slice(-2)).toEqual(['d', 'e']);
    expect(outbox.unpublished()).toEqual(['e', 'f']);
  });

  test('a started relay logs failures, backs off, and publishes once the stream is back', async () => {
    const lines: LogFields[] = [];
    const logger = createLogger({ service: 'relay-test', level: 'warn', write: (line) => void lines.push(JSON.parse(line) as LogFields) });
    outbox.add('a');
    stream.failWith = new Error('nats is down');
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      relay({ logger, intervalMs: 10, retryBackoff: { initialMs: 20, maxMs: 40 } }).start();
      await waitFor('three failed attempts', () => stream.attempts >= 3);
      stream.failWith = undefined;
      await waitFor('the event to be published', () => outbox.unpublished().length === 0);
      expect(stream.published).toEqual(['a']);
      expect(lines.length).toBeGreaterThanOrEqual(3);
      expect(lines[0]).toEqual(expect.objectContaining({ level: 'warn', msg: 'outbox relay failed; retrying', failures: 1, retryInMs: 20 }));
      expect(lines[1]).toEqual(expect.objectContaining({ failures: 2, retryInMs: 40 }));
      expect(lines[0]!.error).toEqual(expect.objectContaining({ message: 'nats is down' }));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  test('wake runs the relay at once instead of at the next interval', async () => {
    const started = relay({ intervalMs: 60_000 });
    started.start();
    await waitFor('the first, empty run', () => stream.attempts === 0 && outbox.unpublished().length === 0);
    await sleep(20);
    outbox.add('a');
    started.wake();
    await waitFor('the woken run', () => stream.published.length === 1);
    // Woken while a run is in flight: that run goes round once more.
    let release: () => void = () => {};
    stream.gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    outbox.add('b');
    started.wake();
    await waitFor('the run to pick up b', () => stream.attempts === 2);
    outbox.add('c');
    started.wake();
    release();
    await waitFor('c, published by the same wake-up chain', () => stream.published.length === 3);
    expect(stream.published).toEqual(['a', 'b', 'c']);
  });

  test('wake does not cut a failure backoff short', async () => {
    outbox.add('a');
    stream.failWith = new Error('nats is down');
    const started = relay({ retryBackoff: { initialMs: 60_000, maxMs: 60_000 } });
    started.start();
    await waitFor('the first attempt', () => stream.attempts === 1);
    await sleep(20);
    for (let i = 0; i < 5; i += 1) started.wake();
    await sleep(50);
    expect(stream.attempts).toBe(1);
  });

  test('stop waits for the batch in flight to be published and marked, then runs no more', async () => {
    outbox.add('a');
    let release: () => void = () => {};
    stream.gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started = relay({ intervalMs: 10 });
    started.start();
    await waitFor('the publish to start', () => stream.attempts === 1);
    let stopped = false;
    const stopping = started.stop().then(() => {
      stopped = true;
    });
    await sleep(30);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(outbox.unpublished()).toEqual([]);
    outbox.add('b');
    started.wake();
    await sleep(50);
    expect(stream.published).toEqual(['a']);
  });
});
