// The gateway's rate-limit counters on the shared NATS server (127.0.0.1:4222) live in key-value
// buckets named in the platform's event namespace, like its streams: gateways of two platforms
// never share counts, replicas of one platform do. The namespace's clean-up removes the buckets.
import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { openWindowCounter, rateLimitBuckets, startGateway, type StartedGateway } from '@voice/gateway';
import { readCommonConfig } from '@voice/runtime/config';
import { deleteNamespaceStreams, testNatsUrl } from './support/nats-namespace.js';

const namespaces = [`rl_${randomBytes(4).toString('hex')}`, `rl_${randomBytes(4).toString('hex')}`] as const;
const [first, second] = namespaces;
const unreachable = 'http://127.0.0.1:9';
const internalSecret = randomBytes(32).toString('hex');

/** The JetStream streams on the server whose names start with one of `prefixes`. */
async function streamsStartingWith(...prefixes: string[]): Promise<string[]> {
  const admin = await connect({ servers: testNatsUrl, name: 'rate-limit-namespaces' });
  try {
    const names: string[] = [];
    for await (const name of (await admin.jetstreamManager()).streams.names()) if (prefixes.some((prefix) => name.startsWith(prefix))) names.push(name);
    return names.sort();
  } finally {
    await admin.close();
  }
}

/** Counts are per minute: a test that counts to a limit does not start in a window's last seconds. */
async function awayFromWindowEdge(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 3_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

afterAll(async () => {
  for (const namespace of namespaces) await deleteNamespaceStreams(namespace);
});

test('counters built the way main.ts builds them: one namespace shares counts, another does not', async () => {
  const common = (namespace: string) => readCommonConfig({ NATS_URL: testNatsUrl, VOICE_EVENT_NAMESPACE: namespace, VOICE_INTERNAL_SECRET: internalSecret });
  await awayFromWindowEdge();
  const counters = [
    await openWindowCounter(common(first), rateLimitBuckets.oauth, 60_000),
    await openWindowCounter(common(first), rateLimitBuckets.oauth, 60_000),
    await openWindowCounter(common(second), rateLimitBuckets.oauth, 60_000),
  ];
  try {
    const [replicaA, replicaB, otherPlatform] = counters as [(typeof counters)[0], (typeof counters)[0], (typeof counters)[0]];
    expect((await replicaA.hit('token.203.0.113.5')).count).toBe(1);
    expect((await replicaB.hit('token.203.0.113.5')).count).toBe(2);
    expect((await otherPlatform.hit('token.203.0.113.5')).count).toBe(1);
    expect((await replicaA.hit('token.203.0.113.5')).count).toBe(3);
    expect(await streamsStartingWith(`KV_${first}_`, `KV_${second}_`)).toEqual([`KV_${first}_voice_oauth_rate_limits`, `KV_${second}_voice_oauth_rate_limits`].sort());
  } finally {
    await Promise.all(counters.map((counter) => counter.close()));
  }
});

test('real gateways over NATS: the OAuth limit is shared by a platform’s replicas only, and the clean-up removes its buckets', async () => {
  const gateway = (namespace: string) =>
    startGateway({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      NATS_URL: testNatsUrl,
      VOICE_EVENT_NAMESPACE: namespace,
      VOICE_INTERNAL_SECRET: internalSecret,
      VOICE_OAUTH_RATE_LIMITS: 'register=20,authorize=60,token=2',
      VOICE_OAUTH_RATE_LIMIT_WINDOW_SECONDS: '3600',
      VOICE_IDENTITY_URL: unreachable,
      VOICE_TOOLS_URL: unreachable,
      VOICE_TELEPHONY_URL: unreachable,
      VOICE_BILLING_URL: unreachable,
      VOICE_PLATFORM_USERS_URL: unreachable,
      VOICE_ASSISTANTS_URL: unreachable,
    });
  const gateways: StartedGateway[] = [];
  try {
    for (const namespace of [first, first, second]) gateways.push(await gateway(namespace));
    const [replicaA, replicaB, otherPlatform] = gateways as [StartedGateway, StartedGateway, StartedGateway];
    // Refused (400), but counted against the caller's address (127.0.0.1 for all three).
    const token = async (at: StartedGateway) => {
      const response = await fetch(`${at.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=password&client_id=x' });
      await response.arrayBuffer();
      return response.status;
    };
    await awayFromWindowEdge();
    expect(await token(replicaA)).toBe(400);
    expect(await token(replicaB)).toBe(400);
    expect(await token(otherPlatform)).toBe(400);
    expect(await token(otherPlatform)).toBe(400);
    expect(await token(replicaA)).toBe(429);
    expect(await token(otherPlatform)).toBe(429);
    expect(await streamsStartingWith(`KV_${first}_`)).toEqual([`KV_${first}_voice_api_rate_limits`, `KV_${first}_voice_oauth_rate_limits`]);
  } finally {
    for (const started of gateways) await started.close();
  }
  for (const namespace of namespaces) await deleteNamespaceStreams(namespace);
  expect(await streamsStartingWith(`KV_${first}_`, `KV_${second}_`, `${first}_`, `${second}_`)).toEqual([]);
});
