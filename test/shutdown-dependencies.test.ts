// Bounded shutdown: the built billing service (`tsc -b` first) as its own process, as its Deployment
// runs it, with its NATS (and, when MONGODB_URI is set, its MongoDB) reached through a loopback
// proxy that the test silences before SIGTERM: the dependency is gone without a word, as a
// partitioned host is. The process still stops its parts in order and exits 0: nothing waits for an
// answer that never comes (the MongoDB driver's timeouts are made an hour here), and the
// process-wide shutdown deadline (set far beyond the test) is not what ends it.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { newId } from '@voice/runtime/ids';
import { connectMongo } from '@voice/runtime/store/mongo';
import { deleteNamespaceStreams, testNatsUrl } from './support/nats-namespace.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';
import { mongoUriFor } from '../services/runtime/test/mongo-databases.js';

const hourMs = 3_600_000;
/** Killed after each test, whatever happened to it. */
const children = new Set<{ kill(signal: NodeJS.Signals): void }>();
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

interface Started {
  output: () => string;
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

async function startBilling(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [join(__dirname, '..', 'services', 'billing', 'dist', 'src', 'main.js')], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      LOG_LEVEL: 'info',
      VOICE_METRICS_PORT: 'off',
      VOICE_BILLING_PORT: '0',
      VOICE_INTERNAL_SECRET: randomBytes(32).toString('hex'),
      VOICE_IDENTITY_URL: 'http://127.0.0.1:9',
      VOICE_SHUTDOWN_TIMEOUT_SECONDS: '300',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      // Logged once SIGTERM is handled (the port listens a moment before).
      if (output.includes('"msg":"started"')) resolve();
    };
    child.stdout.on('data', check);
    void exited.then(() => reject(new Error(`billing exited before it started:\n${output}`)));
  });
  return { output: () => output, exited, kill: (signal) => child.kill(signal) };
}

async function stopsAfterSilence(billing: Started, proxy: TcpProxy): Promise<void> {
  proxy.silence();
  billing.kill('SIGTERM');
  expect({ code: await billing.exited, output: billing.output() }).toEqual({ code: 0, output: expect.stringContaining('"msg":"shutting down"') });
  expect(billing.output()).not.toContain('shutdown did not finish in time');
}

test('NATS gone: SIGTERM stops billing (events, job leases) without waiting for NATS, exit 0', async () => {
  const namespace = `sd_${newId().slice(0, 8)}`;
  const nats = new URL(testNatsUrl);
  const proxy = await startTcpProxy({ host: nats.hostname, port: Number(nats.port || 4222) });
  try {
    const billing = await startBilling({ NATS_URL: `nats://127.0.0.1:${proxy.port}`, VOICE_EVENT_NAMESPACE: namespace, DATA_DIR: join(process.env.TMPDIR ?? '/tmp', `voice-shutdown-${namespace}`) });
    await stopsAfterSilence(billing, proxy);
  } finally {
    await proxy.close();
    await deleteNamespaceStreams(namespace);
  }
}, 60_000);

const mongoUri = mongoUriFor('Shutdown with MongoDB gone');

if (mongoUri) test('MongoDB gone: SIGTERM stops billing (outbox relay, jobs, store) without waiting for server selection, exit 0', async () => {
  const server = new URL(mongoUri.replace(/^mongodb(\+srv)?:/, 'http:'));
  const proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 27017) });
  const prefix = `shutdown-${newId().slice(0, 8)}`;
  try {
    const billing = await startBilling({
      // Only the proxy is known to the driver (no replica-set discovery around it), and it would wait an hour for a server.
      MONGODB_URI: `mongodb://127.0.0.1:${proxy.port}/?directConnection=true&serverSelectionTimeoutMS=${hourMs}&connectTimeoutMS=${hourMs}`,
      MONGODB_DB_PREFIX: prefix,
      VOICE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    });
    await stopsAfterSilence(billing, proxy);
  } finally {
    await proxy.close();
    const handle = await connectMongo(mongoUri, `${prefix}-billing`);
    await handle.db.dropDatabase().finally(() => handle.close());
  }
}, 60_000);
