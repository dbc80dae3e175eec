// A burst against the per-account rate limit (issue 12 item 10): 60 concurrent requests against a
// limit of 20, over two gateways on the cluster (the cluster's own and a second one started here on
// the same services, NATS namespace and secret). The shared KV counter retries compare-and-set
// conflicts, so no more than the limit get through, and no gateway falls back to counting in memory
// (which logs `rate-limit bucket unreachable`) under this normal load. In the single process the
// counter is the process's memory: the same bound holds.
import { startGateway, type StartedGateway } from '@voice/gateway';
import { createLogger } from '@voice/runtime/logger';
import { startTestPlatform, topology, type TestPlatform } from './support/platform.js';

const limit = 20;
const windowSeconds = 3600;
const limits = { VOICE_RATE_LIMITS: `starter=${limit},pro=${limit},enterprise=${limit}`, VOICE_RATE_LIMIT_WINDOW_SECONDS: String(windowSeconds) };

let platform: TestPlatform;
let second: StartedGateway | undefined;
const secondLogs: string[] = [];

beforeAll(async () => {
  platform = await startTestPlatform({ ...limits, LOG_LEVEL: 'warn' });
  if (topology === 'cluster') {
    const { services } = platform.running;
    second = await startGateway(
      {
        PORT: '0',
        HOST: '127.0.0.1',
        VOICE_METRICS_PORT: 'off',
        NATS_URL: platform.env.NATS_URL!,
        VOICE_EVENT_NAMESPACE: platform.env.VOICE_EVENT_NAMESPACE!,
        VOICE_INTERNAL_SECRET: platform.env.VOICE_INTERNAL_SECRET!,
        VOICE_IDENTITY_URL: services.identity,
        VOICE_TOOLS_URL: services.tools,
        VOICE_TELEPHONY_URL: services.telephony,
        VOICE_BILLING_URL: services.billing,
        VOICE_PLATFORM_USERS_URL: services.platformUsers,
        VOICE_ASSISTANTS_URL: services.assistants,
        ...limits,
      },
      { logger: createLogger({ service: 'gateway', level: 'warn', write: (line) => secondLogs.push(line) }) },
    );
  }
});
afterAll(async () => {
  await second?.close();
  await platform.close();
});

const windowOf = (time: number) => Math.floor(time / (windowSeconds * 1000));

test(`60 concurrent requests against a limit of ${limit}: at most ${limit} pass, the rest are 429, and nothing falls back to memory`, async () => {
  const { key } = await platform.workspace();
  const gateways = [platform.running.url, ...(second ? [second.url] : [])];
  const get = async (gateway: string) => {
    const response = await fetch(`${gateway}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    await response.arrayBuffer();
    return response.status;
  };
  const started = Date.now();
  // One request per gateway first: the key is then known to each, and the burst meets the counter at once.
  const warmUp = await Promise.all(gateways.map(get));
  expect(warmUp.every((status) => status === 200)).toBe(true);
  const burst = await Promise.all(Array.from({ length: 60 }, (_, i) => get(gateways[i % gateways.length]!)));
  const statuses = [...warmUp, ...burst];
  const passed = statuses.filter((status) => status === 200).length;
  expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
  // A fixed window: a burst that happens to straddle the hour's turn may use two windows' worth.
  const windows = windowOf(Date.now()) - windowOf(started) + 1;
  expect(passed).toBeGreaterThanOrEqual(limit);
  expect(passed).toBeLessThanOrEqual(limit * windows);
  const fallbacks = [...platform.logs(), ...secondLogs].filter((line) => line.includes('rate-limit bucket unreachable'));
  expect(fallbacks).toEqual([]);
});
