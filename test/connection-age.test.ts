// Services ending their connections after a short maximum age, under steady API traffic through
// the gateway: every connection the gateway holds to a service is replaced several times, and no
// request fails for it (calls that cross a GOAWAY are sent again on the new connection). The
// single-process platform is asked to call its services over HTTP/2 too, so both runs have
// connections to age.
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { apiTool } from './support/tools.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({
    VOICE_GRPC_MAX_CONNECTION_AGE_SECONDS: '1',
    VOICE_GRPC_MAX_CONNECTION_AGE_GRACE_SECONDS: '5',
    VOICE_RATE_LIMITS: 'starter=100000,pro=100000,enterprise=100000',
    VOICE_INTERNAL_TRANSPORT: 'http2',
  });
}, 60_000);
afterAll(() => platform?.close());

test('four seconds of concurrent requests across connection ages: every answer is a success', async () => {
  const customer = await platform.workspace();
  const tool = await platform.api.post('/tools', customer.key, apiTool('aged_lookup'));
  expect(tool.status).toBe(201);
  const statuses = new Map<number, number>();
  const until = Date.now() + 4_000;
  const worker = async () => {
    while (Date.now() < until) {
      // Identity (authentication is cached, so also /me), tools and billing each take calls.
      for (const path of ['/me', `/tools/${tool.body.data.id}`, '/balance']) {
        const { status } = await platform.api.get(path, customer.key);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  expect([...statuses.keys()]).toEqual([200]);
  expect(statuses.get(200)).toBeGreaterThan(100);
}, 30_000);
