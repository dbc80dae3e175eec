// Runs the cluster topology for the bench: every service and the gateway as processes of their
// own (startCluster, the built entry points, as `npm run start:cluster` does) over the NATS server
// at NATS_URL (default nats://127.0.0.1:4222), in an event namespace of the run's own whose
// streams and buckets are removed afterwards, with a temp DATA_DIR and the platform child's key
// and limits; more campaigns dialer replicas can be started beside the supervisor's one.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClusterProcessName, startCluster } from '@voice/platform';
import { freePortsEnv } from '@voice/runtime/config';
import { closeNats, connectNats } from '@voice/runtime/nats';
import { spawnServer, type ChildServer } from './children.js';
import { benchPlatformEnv } from './platform.js';

export interface ClusterUnderTest {
  url: string;
  apiKey: string;
  /** The children's pids by name (a restarted child has a new one). */
  pids(): Record<ClusterProcessName, number | undefined>;
  /** Crash restarts of the children since the start: more than none breaks the measurement. */
  crashes(): number;
  /** Starts one more campaigns dialer (the supervisor runs one): the dial queue's jobs are shared among them all. */
  addDialerReplica(): Promise<void>;
  stop(): Promise<void>;
}

/** Deletes the event streams and key-value buckets of the namespace. */
async function removeNamespace(natsUrl: string, namespace: string): Promise<void> {
  const connection = await connectNats(natsUrl, `bench-cleanup-${namespace}`);
  try {
    const manager = await connection.jetstreamManager();
    const names: string[] = [];
    for await (const name of manager.streams.names()) names.push(name);
    for (const name of names) {
      if (name.startsWith(`${namespace}_`) || name.startsWith(`KV_${namespace}_`)) await manager.streams.delete(name);
    }
  } finally {
    await closeNats(connection);
  }
}

/** The line a process started by runProcess logs once it runs. */
function startedLine(line: string): boolean {
  try {
    return (JSON.parse(line) as { msg?: unknown }).msg === 'started';
  } catch {
    return false;
  }
}

/** The supervisor of the checkout under test, which knows that checkout's processes (an older one has fewer). */
function supervisorOf(repoRoot: string): typeof startCluster {
  return (require(join(repoRoot, 'platform', 'dist', 'src', 'cluster.js')) as { startCluster: typeof startCluster }).startCluster;
}

export async function startClusterUnderTest(repoRoot: string, log: (line: string) => void): Promise<ClusterUnderTest> {
  const startCluster = supervisorOf(repoRoot);
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-bench-cluster-'));
  const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const namespace = `bench_${randomBytes(4).toString('hex')}`;
  const { env, apiKey } = benchPlatformEnv(dataDir);
  const cleanUp = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await removeNamespace(natsUrl, namespace).catch((error: unknown) => log(`warning: could not remove the namespace ${namespace}: ${String(error)}`));
  };
  const clusterEnv: Record<string, string> = {
    ...env,
    NATS_URL: natsUrl,
    VOICE_EVENT_NAMESPACE: namespace,
    ...freePortsEnv(),
  };
  // Children's warnings and errors, as the platform child's are.
  const output = (name: ClusterProcessName, _stream: 'stdout' | 'stderr', chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) log(`[${name}] ${line}`);
  };
  let running;
  try {
    running = await startCluster(clusterEnv, { root: repoRoot, output });
  } catch (error) {
    await cleanUp();
    throw error;
  }
  const cluster = running;
  const replicas: ChildServer[] = [];
  return {
    url: cluster.url,
    apiKey,
    pids: () => Object.fromEntries(Object.entries(cluster.status()).map(([name, status]) => [name, status.pid])) as Record<ClusterProcessName, number | undefined>,
    crashes: () => Object.values(cluster.status()).reduce((sum, status) => sum + status.crashes, 0),
    addDialerReplica: async () => {
      const name = `campaigns-dialer-${replicas.length + 2}`;
      replicas.push(
        await spawnServer({
          name,
          script: join(repoRoot, 'services', 'campaigns', 'dist', 'src', 'dialer', 'main.js'),
          // The supervisor's children's settings (its ports at 0: a free one of its own), the same data, secrets and services.
          env: {
            ...clusterEnv,
            DATA_DIR: cluster.dataDir,
            VOICE_INTERNAL_SECRET: cluster.secrets.internalSecret,
            VOICE_ENCRYPTION_KEY: cluster.secrets.encryptionKey,
            VOICE_ASSISTANTS_URL: cluster.services.assistants,
            VOICE_TELEPHONY_URL: cluster.services.telephony,
            VOICE_CALLS_URL: cluster.services.calls,
            // Its "started" line (info) says it runs.
            LOG_LEVEL: 'info',
          },
          readyUrl: (line) => (startedLine(line) ? name : undefined),
        }),
      );
    },
    stop: async () => {
      try {
        for (const replica of replicas) await replica.stop();
        await cluster.stop();
      } finally {
        await cleanUp();
      }
    },
  };
}
