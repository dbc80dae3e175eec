// Opening the runtime's key-value buckets against the real NATS server, and the key rules the buckets'
// live entries depend on: a bucket opens with one value per key and its TTL; a bucket that cannot be
// opened leaves no connection behind; each rule keeps the keys it always made.
import { randomBytes } from 'node:crypto';
import * as nats from 'nats';
import { kvKey, kvKeyReplacing, openKvBucket } from '../src/nats/kv.js';

// Every connection the code under test opens, so a test can see whether it was closed.
jest.mock('nats', () => {
  const actual = jest.requireActual<typeof nats>('nats');
  return { ...actual, connect: jest.fn(actual.connect) };
});
const connectSpy = nats.connect as jest.MockedFunction<typeof nats.connect>;

const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const bucket = `test_kv_${randomBytes(4).toString('hex')}`;

afterAll(async () => {
  // The shared NATS server keeps buckets for good: remove this run's.
  const admin = await nats.connect({ servers: natsUrl });
  try {
    await (await admin.jetstreamManager()).streams.delete(`KV_${bucket}`);
  } finally {
    await admin.close();
  }
});

test('a bucket opens keeping one value per key, entries expiring with its TTL', async () => {
  const { connection, kv } = await openKvBucket(natsUrl, 'kv-test', bucket, { ttlMs: 60_000, replicas: 1, operationTimeoutMs: 1_000 });
  try {
    const status = await kv.status();
    expect(status).toMatchObject({ history: 1, ttl: 60_000, replicas: 1 });
    await kv.put('k', new TextEncoder().encode('1'));
    await kv.put('k', new TextEncoder().encode('2'));
    const kept: string[] = [];
    for await (const entry of await kv.history({ key: 'k' })) kept.push(new TextDecoder().decode(entry.value));
    expect(kept).toEqual(['2']);
  } finally {
    await connection.close();
  }
});

test('a bucket that cannot be opened closes the connection it made', async () => {
  connectSpy.mockClear();
  await expect(openKvBucket(natsUrl, 'kv-test', 'not a bucket name', { ttlMs: 60_000, replicas: 1, operationTimeoutMs: 1_000 })).rejects.toThrow();
  expect(connectSpy).toHaveBeenCalledTimes(1);
  const connection = await connectSpy.mock.results[0]!.value;
  expect(connection.isClosed()).toBe(true);
});

test('kvKey keeps a key the bucket can hold and hex-encodes any other whole, so two keys never become one', () => {
  expect(kvKey('token.10.0.0.7')).toBe('token.10.0.0.7');
  expect(kvKey('token.2001:db8::1')).toBe(Buffer.from('token.2001:db8::1').toString('hex'));
  expect(kvKey('a:b')).not.toBe(kvKey('a_b'));
});

test("kvKeyReplacing (the job leases' keys) turns each character a key cannot hold into '_'", () => {
  expect(kvKeyReplacing('campaigns-dialer.retention')).toBe('campaigns-dialer.retention');
  expect(kvKeyReplacing('calls:prune recordings')).toBe('calls_prune_recordings');
});
