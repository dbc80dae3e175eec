// The rate-limit counter through a NATS outage: a NATS server of this test's own (so it can be
// stopped) holds the bucket; while it is down, hits are counted in memory and never fail; when
// it is back, the shared counts resume.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWindowCounter, rateLimitBuckets } from '../src/counters/open-window-counter.js';
import { FallbackWindowCounter } from '../src/counters/fallback-window-counter.js';
import { MemoryWindowCounter, type WindowCounter } from '../src/counters/window-counter.js';

const natsServer = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts nats-server with JetStream on the port and waits until it accepts connections. */
async function startNats(port: number, storeDir: string): Promise<ChildProcess> {
  const child = spawn(natsServer, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
  for (let attempt = 0; attempt < 100; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return child;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`nats-server did not start on ${port}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

test('during a NATS outage hits are counted in memory and never fail; afterwards the shared counts resume', async () => {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'nats-outage-'));
  let nats = await startNats(port, storeDir);
  const failures: unknown[] = [];
  let counter: WindowCounter | undefined;
  try {
    const common = { natsUrl: `nats://127.0.0.1:${port}`, eventNamespace: undefined, natsReplicas: 1 };
    counter = await openWindowCounter(common, rateLimitBuckets.api, 60 * 60_000, (error) => failures.push(error));
    expect(counter).toBeInstanceOf(FallbackWindowCounter);
    for (const expected of [1, 2, 3]) expect((await counter.hit('workspace-a')).count).toBe(expected);
    expect(failures).toEqual([]);

    await stop(nats);
    // Counted locally from here: the limit still applies, per replica.
    const during = [];
    for (let i = 0; i < 5; i++) during.push((await counter.hit('workspace-a')).count);
    expect(during).toEqual([1, 2, 3, 4, 5]);
    // One failure started the rest; the hits during it did not ask NATS again.
    expect(failures).toHaveLength(1);

    nats = await startNats(port, storeDir);
    // After a rest (5 s) the shared bucket is asked again and answers with the counts it kept; a
    // hit made before the client reconnected fails and starts another rest.
    let resumed: number | undefined;
    for (let attempt = 0; attempt < 8 && resumed === undefined; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 5_100));
      const before = failures.length;
      const { count } = await counter.hit('workspace-a');
      if (failures.length === before) resumed = count;
    }
    expect(resumed).toBe(4);
  } finally {
    await counter?.close().catch(() => undefined);
    await stop(nats);
    rmSync(storeDir, { recursive: true, force: true });
  }
}, 60_000);

test('a failing shared counter rests for the configured time, then is asked again', async () => {
  let now = 0;
  let sharedUp = false;
  let asked = 0;
  const shared: WindowCounter = {
    hit: async () => {
      asked++;
      if (!sharedUp) throw new Error('unreachable');
      return { count: 100, resetAt: 60_000 };
    },
    close: async () => {},
  };
  const failures: unknown[] = [];
  const counter = new FallbackWindowCounter(shared, new MemoryWindowCounter(60_000, () => now), { restMs: 5_000, clock: () => now, onFailure: (error) => failures.push(error) });
  expect((await counter.hit('k')).count).toBe(1);
  expect(asked).toBe(1);
  now = 4_999;
  expect((await counter.hit('k')).count).toBe(2);
  expect(asked).toBe(1);
  sharedUp = true;
  now = 5_000;
  expect((await counter.hit('k')).count).toBe(100);
  expect(asked).toBe(2);
  expect(failures).toHaveLength(1);
});
