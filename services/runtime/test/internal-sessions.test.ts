// Internal HTTP/2 sessions survive going idle, closing and reopening: the PING check of
// connect-node 2.1.2 hangs (or spins) when a session closes while it is out, so ours never ping.
// And a request the server refused because it crossed a GOAWAY is sent again, where
// connect-node's own session manager fails it.
import { execFile } from 'node:child_process';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Code, ConnectError, createClient, type Client } from '@connectrpc/connect';
import { connectNodeAdapter, createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { Health } from '@voice/proto/grpc/health/v1/health';
import { HealthRegistry, registerHealth, ServingStatus } from '../src/server/health.js';
import { guardSession, internalSessionManager } from '../src/internal/internal-sessions.js';
import { startAgedServer } from './aged-server.js';
import { connectErrorOf } from './connect-error-of.js';

const churn = (mode: 'internal' | 'library') =>
  new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = execFile(process.execPath, [join(__dirname, 'fixtures', 'session-churn.js'), mode], { timeout: 40_000, killSignal: 'SIGKILL' }, (error, stdout) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout }),
    );
    child.stdin?.end();
  });

test('200 calls across idle closes all answer with the platform\'s session settings', async () => {
  const { code, stdout } = await churn('internal');
  expect({ code, stdout }).toEqual({ code: 0, stdout: JSON.stringify({ answered: 200 }) });
}, 45_000);

const refusal = 'Stream closed with error code NGHTTP2_REFUSED_STREAM';

/**
 * A Connect server with the health service whose first `refusing` connections are closed (GOAWAY,
 * last stream 0) as they open: the client has sent its request by the time the GOAWAY reaches
 * it, so the request is refused.
 */
async function refusingServer(refusing: number) {
  const health = new HealthRegistry();
  health.set('', ServingStatus.SERVING);
  const server = http2.createServer(connectNodeAdapter({ routes: (router) => registerHealth(router, health) }));
  let connections = 0;
  server.on('session', (session) => {
    connections += 1;
    if (connections <= refusing) session.close();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    connections: () => connections,
    close: async () => {
      health.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function healthClient(sessions: Http2SessionManager, url: string): Client<typeof Health> {
  return createClient(Health, createConnectTransport({ baseUrl: url, httpVersion: '2', sessionManager: sessions }));
}

describe('a request the server refused', () => {
  test('fails through connect-node\'s own session manager (the server really refuses it)', async () => {
    const server = await refusingServer(1);
    const sessions = new Http2SessionManager(server.url);
    try {
      const error = await connectErrorOf(healthClient(sessions, server.url).check({ service: '' }));
      expect({ code: error.code, message: error.rawMessage }).toEqual({ code: Code.Internal, message: expect.stringContaining(refusal) });
      expect(server.connections()).toBe(1);
    } finally {
      sessions.abort();
      await server.close();
    }
  });

  test('is sent again on a new connection, and answered', async () => {
    const server = await refusingServer(1);
    const sessions = internalSessionManager(server.url);
    try {
      expect((await healthClient(sessions, server.url).check({ service: '' })).status).toBe(ServingStatus.SERVING);
      expect(server.connections()).toBe(2);
    } finally {
      sessions.abort();
      await server.close();
    }
  });

  test('ten times fails with the refusal, without an eleventh attempt', async () => {
    const server = await refusingServer(Number.POSITIVE_INFINITY);
    const sessions = internalSessionManager(server.url);
    try {
      const error = await connectErrorOf(healthClient(sessions, server.url).check({ service: '' }));
      expect({ code: error.code, message: error.rawMessage }).toEqual({ code: Code.Internal, message: expect.stringContaining(refusal) });
      expect(server.connections()).toBe(10);
    } finally {
      sessions.abort();
      await server.close();
    }
  });

  test('as a server stream, is sent again, and the caller can still cancel it', async () => {
    const server = await refusingServer(1);
    const sessions = internalSessionManager(server.url);
    try {
      const abort = new AbortController();
      const watch = healthClient(sessions, server.url).watch({ service: '' }, { signal: abort.signal })[Symbol.asyncIterator]();
      expect((await watch.next()).value?.status).toBe(ServingStatus.SERVING);
      expect(server.connections()).toBe(2);
      abort.abort();
      expect((await connectErrorOf(watch.next())).code).toBe(Code.Canceled);
    } finally {
      sessions.abort();
      await server.close();
    }
  });
});

test('16 callers on connections that last 100 ms: the calls that cross a GOAWAY are sent again, where connect-node alone fails some', async () => {
  const aged = await startAgedServer({ maxAgeMs: 100, graceMs: 1000 });
  let answeredSoFar = 0;
  /** 16 loops of health checks until `done` says so; what answered and what failed. */
  const load = async (sessions: Http2SessionManager, done: (failures: string[]) => boolean) => {
    const health = healthClient(sessions, aged.server.url);
    const failures: string[] = [];
    let answered = 0;
    answeredSoFar = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (!done(failures)) {
          try {
            await health.check({ service: '' });
            answered += 1;
            answeredSoFar = answered;
          } catch (error) {
            failures.push(ConnectError.from(error).rawMessage);
          }
        }
      }),
    );
    sessions.abort();
    return { answered, failures };
  };
  try {
    // Until enough calls crossed enough connection ages (never a time: a busy machine only takes longer).
    const giveUpAt = Date.now() + 40_000;
    const internal = await load(internalSessionManager(aged.server.url), (failures) => failures.length > 0 || Date.now() > giveUpAt || (answeredSoFar > 100 && aged.connections() >= 5));
    expect(internal.failures).toEqual([]);
    expect(internal.answered).toBeGreaterThan(100);
    expect(aged.connections()).toBeGreaterThanOrEqual(5);
    // The same load through connect-node's own manager, until its first failure: the race is real.
    const libraryUntil = Date.now() + 10_000;
    const library = await load(new Http2SessionManager(aged.server.url), (failures) => failures.length > 0 || Date.now() > libraryUntil);
    expect(library.failures).toContainEqual(expect.stringContaining(refusal));
  } finally {
    await aged.close();
  }
}, 90_000);

describe('a session connect-node has let go of', () => {
  test('failing later (destroyed with an error) does not escape as an uncaught exception', async () => {
    const server = http2.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const session = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    await new Promise<void>((resolve, reject) => {
      session.once('connect', () => resolve());
      session.once('error', reject);
    });
    // Nothing else listens: as after connect-node's clean-up, when its GOAWAY handling destroys the session.
    session.removeAllListeners('error');
    guardSession(session);
    guardSession(session);
    expect(session.listenerCount('error')).toBe(1);
    const closed = new Promise<void>((resolve) => session.once('close', () => resolve()));
    session.destroy(new Error('received GOAWAY without any open streams'));
    await closed;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
