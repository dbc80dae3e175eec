// The OAuth rate-limit counters shared between gateway replicas, against the real NATS server
// (JetStream key-value): two replicas count the same requests, exactly, under concurrency.
import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { NatsWindowCounter } from '../src/counters/nats-window-counter.js';
import { kvKey } from '../src/nats/kv.js';

const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const bucket = `test_limits_${randomBytes(4).toString('hex')}`;
let now = Date.parse('2026-11-21T10:00:00.000Z');
const clock = () => now;
let replicas: NatsWindowCounter[] = [];

beforeAll(async () => {
  replicas = [await NatsWindowCounter.connect(natsUrl, bucket, 60_000, clock), await NatsWindowCounter.connect(natsUrl, bucket, 60_000, clock)];
});
afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  // The shared NATS server keeps buckets for good: remove this run's.
  const admin = await connect({ servers: natsUrl });
  try {
    await (await admin.jetstreamManager()).streams.delete(`KV_${bucket}`);
  } finally {
    await admin.close();
  }
});

test('two replicas count one address together', async () => {
  const [a, b] = replicas as [NatsWindowCounter, NatsWindowCounter];
  expect((await a.hit('token.10.0.0.7')).count).toBe(1);
  expect((await b.hit('token.10.0.0.7')).count).toBe(2);
  expect((await a.hit('token.10.0.0.7')).count).toBe(3);
  expect((await b.hit('token.10.0.0.8')).count).toBe(1);
});

test('concurrent hits from both replicas are each counted once', async () => {
  const [a, b] = replicas as [NatsWindowCounter, NatsWindowCounter];
  const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).hit('register.192.0.2.1')));
  expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
});

test('60 concurrent hits of one key from both replicas: conflicts are retried, every hit counted exactly once', async () => {
  const [a, b] = replicas as [NatsWindowCounter, NatsWindowCounter];
  const counts = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? a : b).hit('account.burst')));
  expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
});

test('hits of one key that arrive while its write is in flight share the next write, each with its own count in arrival order', async () => {
  const [a] = replicas as [NatsWindowCounter];
  const admin = await connect({ servers: natsUrl });
  try {
    const streams = (await admin.jetstreamManager()).streams;
    const writesBefore = (await streams.info(`KV_${bucket}`)).state.last_seq;
    const counts = await Promise.all(Array.from({ length: 200 }, () => a.hit('account.batched')));
    expect(counts.map((c) => c.count)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const kv = await admin.jetstream().views.kv(bucket);
    const entry = await kv.get(`${kvKey('account.batched')}.${now - (now % 60_000)}`);
    expect(Number(new TextDecoder().decode(entry!.value))).toBe(200);
    // One write per hit would be 200: the first hit's write, then the rest together.
    expect(entry!.revision - writesBefore).toBeLessThanOrEqual(5);
  } finally {
    await admin.close();
  }
});

test('a new window starts from zero and reports when it resets', async () => {
  const [a] = replicas as [NatsWindowCounter];
  const first = await a.hit('authorize.::1');
  expect(first.resetAt).toBe(Date.parse('2026-11-21T10:01:00.000Z'));
  now += 60_000;
  expect((await a.hit('authorize.::1')).count).toBe(1);
});
