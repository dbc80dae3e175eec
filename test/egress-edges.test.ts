// The egress guard and outbound failures through the gateway (issue 12 items 6 and 7): only globally
// reachable addresses of the IANA special-purpose registries pass, never one of the host's own; and
// a failed outbound request reaches the caller as one stable reason (unreachable, timeout,
// tls_error, dns_error, bad_response) while its detail (address, port, library) goes to the log.
import net from 'node:net';
import { networkInterfaces } from 'node:os';
import { expectError } from './support/api-client.js';
import { startHttpApi, type Loopback } from './support/loopback.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

const uniqueName = (prefix: string) => `${prefix}_${Math.random().toString(36).slice(2, 8)}`;

async function testRun(platform: TestPlatform, key: string, url: string) {
  const created = await platform.api.post('/tools', key, { name: uniqueName('edge'), type: 'api', config: { method: 'GET', url, timeout_ms: 3000 } });
  expect(created.status).toBe(201);
  return platform.api.post(`/tools/${created.body.data.id}/test`, key, {});
}

const rawServers: net.Server[] = [];
const rawSockets = new Set<net.Socket>();
afterAll(() => {
  for (const socket of rawSockets) socket.destroy();
  return Promise.all(rawServers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A TCP server that answers every connection with the given bytes and closes it. */
async function rawServer(answer: string): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer((socket) => {
    rawSockets.add(socket);
    socket.on('close', () => rawSockets.delete(socket));
    socket.end(answer);
  });
  rawServers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function closedPort(): Promise<number> {
  const server = await rawServer('');
  await server.close();
  return server.port;
}

describe('the default egress guard (issue 12 item 6)', () => {
  let platform: TestPlatform;
  let key: string;
  let target: Loopback;

  beforeAll(async () => {
    platform = await startTestPlatform();
    key = (await platform.workspace()).key;
    // On every interface, so that an interface address of this host reaches it were it not refused.
    target = await startHttpApi(undefined, '0.0.0.0');
  });
  afterAll(async () => {
    await Promise.all([platform.close(), target.close()]);
  });

  // Documentation and deprecated ranges: refused before connecting, so no traffic leaves even were the guard broken.
  test.each([
    'http://192.0.2.1/x',
    'http://198.51.100.7/x',
    'http://203.0.113.9/x',
    'http://[fec0::1]/x',
    'http://[2001:db8::1]/x',
    'http://[::ffff:192.0.2.1]/x',
    'http://[::ffff:c633:6407]/x',
    'http://[64:ff9b::cb00:7109]/x',
    'http://[::ffff:8.8.8.8]/x',
  ])('%s is 403 destination_forbidden', async (url) => {
    expectError(await testRun(platform, key, url), 403, 'destination_forbidden');
  });

  test("this host's own interface addresses are refused, whatever range they are in", async () => {
    const own = Object.values(networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .filter((entry) => entry.family === 'IPv4' && !entry.internal)
      .map((entry) => entry.address);
    if (own.length === 0) {
      console.warn('skipped: this machine has no non-loopback IPv4 interface address to test with');
      return;
    }
    const port = new URL(target.url).port;
    for (const address of own) expectError(await testRun(platform, key, `http://${address}:${port}/x`), 403, 'destination_forbidden');
    expect(target.received).toHaveLength(0);
  });

  test('an OAuth client metadata document on a documentation address is not fetched', async () => {
    const response = await fetch(`${platform.running.url}/oauth/authorize?response_type=code&client_id=${encodeURIComponent('https://192.0.2.1/client.json')}&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('not allowed');
  });
});

describe('outbound failures are stable reasons (issue 12 item 7)', () => {
  let platform: TestPlatform;
  let key: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ VOICE_EGRESS_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'warn' });
    key = (await platform.workspace()).key;
  });
  afterAll(() => platform.close());

  const leaks = /ECONNREFUSED|ENOTFOUND|EAI_|HPE_|SSL|ssl|openssl|node:|127\.0\.0\.1|\/node_modules\//;

  test.each([
    ['a refused connection', async () => `http://127.0.0.1:${await closedPort()}/x`, 'unreachable', 'ECONNREFUSED'],
    ['a name that does not resolve', async () => 'http://no-such-host.invalid/x', 'dns_error', 'ENOTFOUND'],
    ['a server that does not speak TLS', async () => `https://127.0.0.1:${(await rawServer('HTTP/1.1 200 OK\r\n\r\n')).port}/x`, 'tls_error', ''],
    ['a server that does not speak HTTP', async () => `http://127.0.0.1:${(await rawServer('SSH-2.0-OpenSSH_9.6\r\n')).port}/x`, 'bad_response', 'Parse Error'],
  ])('%s: the tool test says %s, and the log has the detail', async (_case, url, reason, detail) => {
    const response = await testRun(platform, key, await url());
    expect(response.status).toBe(200);
    expect(response.body.data.error.code).toBe(reason);
    expect(response.text).not.toMatch(leaks);
    const logged = platform.logs().filter((line) => line.includes('"msg":"outbound request failed"') && line.includes(`"reason":"${reason}"`));
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('\n')).toContain(detail);
  });

  test('the OAuth page names the reason for a client metadata document it could not fetch, not the error', async () => {
    const port = await closedPort();
    const response = await fetch(`${platform.running.url}/oauth/authorize?response_type=code&client_id=${encodeURIComponent(`https://localhost:${port}/client.json`)}&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`);
    const page = await response.text();
    expect(response.status).toBe(400);
    expect(page).toContain('unreachable');
    expect(page).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|::1/);
  });
});
