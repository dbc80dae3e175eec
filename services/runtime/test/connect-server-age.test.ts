// The maximum connection age of startConnectServer, over real HTTP/2 on loopback with the
// platform's internal client sessions: callers move to new connections without a failed call,
// calls in flight finish within the grace, a call that outlives it is cut, `off` keeps one
// connection, and no connection-age timer keeps a closed server's process alive.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Code, ConnectError, createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport, type Http2SessionManager } from '@connectrpc/connect-node';
import { Health } from '@voice/proto/grpc/health/v1/health';
import { ToolsService } from '@voice/proto/voice/tools/v1/tools';
import { ServingStatus } from '../src/server/health.js';
import { internalSessionManager } from '../src/internal/internal-sessions.js';
import type { ConnectionAge } from '../src/server/connect-server.js';
import { startAgedServer, type AgedServer } from './aged-server.js';

interface Started {
  aged: AgedServer;
  sessions: Http2SessionManager;
  health: Client<typeof Health>;
  tools: Client<typeof ToolsService>;
}

const open: Started[] = [];

// connect-node reports on the console when a handler cannot answer a call whose connection was
// cut (the grace test); that is the library's own noise, kept out of the test output.
const cutCallNoise = 'handler for rpc GetTool of voice.tools.v1.ToolsService failed';
const consoleError = console.error.bind(console);
beforeAll(() => {
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith(cutCallNoise)) return;
    consoleError(...args);
  });
});
afterAll(() => jest.restoreAllMocks());

async function start(connectionAge: ConnectionAge): Promise<Started> {
  const aged = await startAgedServer(connectionAge);
  const sessions = internalSessionManager(aged.server.url);
  const transport = createConnectTransport({ baseUrl: aged.server.url, httpVersion: '2', sessionManager: sessions });
  const started = { aged, sessions, health: createClient(Health, transport), tools: createClient(ToolsService, transport) };
  open.push(started);
  return started;
}

afterEach(async () => {
  for (const { aged, sessions } of open.splice(0)) {
    sessions.abort();
    await aged.close();
  }
});

/** Health checks one after another for `ms`; the failures, as text. */
async function checkFor(health: Client<typeof Health>, ms: number): Promise<{ answered: number; failures: string[] }> {
  const until = Date.now() + ms;
  let answered = 0;
  const failures: string[] = [];
  while (Date.now() < until) {
    try {
      await health.check({ service: '' });
      answered += 1;
    } catch (error) {
      failures.push(String(error));
    }
    await sleep(20);
  }
  return { answered, failures };
}

/** Checks health until the server has accepted `count` connections. */
async function untilConnections({ aged, health }: Started, count: number): Promise<void> {
  while (aged.connections() < count) {
    await health.check({ service: '' });
    await sleep(20);
  }
}

test('a caller making calls for 3 s is moved to new connections, and no call fails', async () => {
  const { aged, health } = await start({ maxAgeMs: 1000, graceMs: 1000 });
  const { answered, failures } = await checkFor(health, 3000);
  expect(failures).toEqual([]);
  expect(answered).toBeGreaterThan(10);
  // Ages of 0.9 to 1.1 s: a new connection at least every 1.1 s.
  expect(aged.connections()).toBeGreaterThanOrEqual(2);
});

test('a call in flight at GOAWAY finishes on the old connection while new calls use a new one', async () => {
  const caller = await start({ maxAgeMs: 1000, graceMs: 5000 });
  let finished = false;
  const slow = caller.tools.getTool({ id: 'wait:2500' }, { headers: caller.aged.headers() }).finally(() => (finished = true));
  await untilConnections(caller, 2);
  expect(finished).toBe(false);
  expect((await slow).tool?.id).toBe('wait:2500');
  expect(caller.aged.handled).toEqual(['wait:2500']);
});

test('a server stream open at GOAWAY keeps receiving until the caller ends it', async () => {
  const caller = await start({ maxAgeMs: 1000, graceMs: 5000 });
  const abort = new AbortController();
  const watch = caller.health.watch({ service: '' }, { signal: abort.signal })[Symbol.asyncIterator]();
  try {
    expect((await watch.next()).value?.status).toBe(ServingStatus.SERVING);
    await untilConnections(caller, 2);
    // The stream is still on the first connection, which got GOAWAY.
    caller.aged.server.health.set('', ServingStatus.NOT_SERVING);
    expect((await watch.next()).value?.status).toBe(ServingStatus.NOT_SERVING);
  } finally {
    abort.abort();
  }
});

test('a call still running when the grace ends is cut: the caller gets an error, and the call is not sent again', async () => {
  const { aged, tools } = await start({ maxAgeMs: 1000, graceMs: 1000 });
  let failure: unknown;
  try {
    await tools.getTool({ id: 'hang' }, { headers: aged.headers() });
  } catch (error) {
    failure = error;
  }
  // connect-node reports the stream the closing connection took with it as CANCEL.
  expect(failure).toBeInstanceOf(ConnectError);
  expect((failure as ConnectError).code).toBe(Code.Canceled);
  expect((failure as ConnectError).rawMessage).toBe('http/2 stream closed with error code CANCEL (0x8)');
  expect(aged.handled).toEqual(['hang']);
  expect(aged.logLines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContain(
    'connection outlived its grace period after reaching its maximum age; its calls are cut',
  );
}, 10_000);

test('off: one connection serves every call', async () => {
  const { aged, health } = await start('off');
  const { answered, failures } = await checkFor(health, 2500);
  expect(failures).toEqual([]);
  expect(answered).toBeGreaterThan(10);
  expect(aged.connections()).toBe(1);
});

test('a server closed while a connection is in its grace period lets the process exit on its own', async () => {
  const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    // A minute of grace is left when the server closes; a timer that held the process would show here.
    const child = execFile(process.execPath, [join(__dirname, 'fixtures', 'aged-server-exit.js')], { timeout: 20_000, killSignal: 'SIGKILL' }, (error, out) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout: out }),
    );
    child.stdin?.end();
  });
  expect({ code, stdout }).toEqual({ code: 0, stdout: 'closed' });
}, 25_000);
