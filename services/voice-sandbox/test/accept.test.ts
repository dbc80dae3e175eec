// The stream endpoint under a busy event loop: in the single process the runtime shares its loop
// with the API, and a loop accepts one connection per listening socket and turn. Connections that
// arrive while the loop is busy must not wait one turn each (they waited seconds under the bench's
// calls until carriers' handshakes timed out), so the runtime listens on several sockets of its port.
import net from 'node:net';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { CallSessionService } from '@voice/proto/voice/calls/v1/call_sessions';
import { createLogger } from '@voice/runtime/logger';
import { startMediaServer, type RunningMediaServer } from '../src/server.js';

let server: RunningMediaServer;

beforeAll(async () => {
  server = await startMediaServer({
    host: '127.0.0.1',
    port: 0,
    // Nothing here reaches the calls service: only /healthz is asked.
    client: createClient(CallSessionService, createConnectTransport({ baseUrl: 'http://127.0.0.1:9', httpVersion: '1.1' })),
    callOptions: () => ({ headers: {} }),
    turnGapMs: 0,
    now: () => Date.now(),
    logger: createLogger({ service: 'voice-sandbox-test', level: 'silent' }),
  });
});
afterAll(() => server.close());

/** Blocks this process's event loop for `ms`, as a burst of requests does. */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

// SO_REUSEPORT spreads connections over the sockets on Linux only; elsewhere the runtime listens on one.
(process.platform === 'linux' ? test : test.skip)('connections that arrive while the loop is busy are accepted several per turn, not one per turn', async () => {
  const count = 16;
  let turn = 0;
  let counting = true;
  const countTurns = () => {
    turn += 1;
    if (counting) setImmediate(countTurns);
  };
  const answeredAt: number[] = [];
  const connections = Array.from({ length: count }, () => {
    const socket = net.connect(server.port, '127.0.0.1');
    socket.on('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: runtime\r\nConnection: close\r\n\r\n'));
    socket.once('data', () => answeredAt.push(turn));
    socket.resume();
    return new Promise<void>((resolve, reject) => socket.on('close', () => resolve()).on('error', reject));
  });
  // Every connection is queued at the kernel (and its request sent) while the loop is busy.
  setImmediate(() => {
    busy(300);
    countTurns();
  });
  await Promise.all(connections);
  counting = false;
  expect(answeredAt).toHaveLength(count);
  // One listening socket answers one connection per turn: `count` - 1 turns from the first answer to the
  // last. Several share them out (by the connections' ports: 12 or more of 16 on one of 8 is ~1e-7).
  expect(Math.max(...answeredAt) - Math.min(...answeredAt)).toBeLessThan(count - 4);
});
