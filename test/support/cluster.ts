// Starts the platform as separate processes (the built entry points, as `npm run start:cluster`
// does) on free ports with a fresh data directory, behind the same helpers as startTestPlatform
// (which starts this one for VOICE_E2E_TOPOLOGY=cluster). The built entry points must be current:
// `npm test` runs `tsc -b` first.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster, type RunningCluster } from '@voice/platform';
import { freePortsEnv } from '@voice/runtime/config';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { deleteNamespaceStreams, testNatsUrl } from './nats-namespace.js';
import { newRootKey, testPasswordHashCost, testPlatformOn, type TestPlatform } from './platform.js';

export interface TestCluster extends TestPlatform<RunningCluster> {
  /** Every line the children and the supervisor wrote (JSON log lines, mostly), oldest first. */
  output(): string[];
}

/**
 * The cluster over NATS_URL (the test NATS server unless `env` names one). Without a
 * VOICE_EVENT_NAMESPACE in `env` it gets one of its own, whose streams close() removes; one the
 * test passes is the test's to remove. A directory the test names (`dataDir` or DATA_DIR) is kept
 * on close; a fresh one is removed.
 */
export async function startTestCluster(env: Record<string, string> = {}, dataDir?: string): Promise<TestCluster> {
  const given = dataDir ?? env.DATA_DIR;
  const dir = given ?? mkdtempSync(join(tmpdir(), 'voice-cluster-'));
  const removeDir = () => {
    if (!given) rmSync(dir, { recursive: true, force: true });
  };
  // Its own namespace keeps this cluster's streams and durables apart from every other run's.
  const ownNamespace = env.VOICE_EVENT_NAMESPACE === undefined ? `e2e_${newId().slice(0, 8)}` : undefined;
  const natsUrl = env.NATS_URL ?? testNatsUrl;
  const removeStreams = async () => {
    if (ownNamespace) await deleteNamespaceStreams(ownNamespace, natsUrl);
  };
  const rootKey = env.VOICE_ROOT_API_KEY ?? newRootKey();
  const internalSecret = env.VOICE_INTERNAL_SECRET ?? randomBytes(32).toString('hex');
  const lines: string[] = [];
  const partial = new Map<string, string>();
  const collect = (name: string, stream: string, chunk: Buffer) => {
    const key = `${name}/${stream}`;
    const text = (partial.get(key) ?? '') + chunk.toString('utf8');
    const complete = text.split('\n');
    partial.set(key, complete.pop()!);
    for (const line of complete) if (line) lines.push(line.startsWith('{') ? line : JSON.stringify({ process: name, stream, line }));
  };
  const clusterEnv: Record<string, string> = {
    // The children's environment is exactly this: nothing of the developer's shell leaks in.
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOST: '127.0.0.1',
    PORT: '0',
    ...freePortsEnv(),
    DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    NATS_URL: natsUrl,
    VOICE_PASSWORD_HASH_COST: testPasswordHashCost,
    ...(ownNamespace ? { VOICE_EVENT_NAMESPACE: ownNamespace } : {}),
    ...env,
    VOICE_ROOT_API_KEY: rootKey,
    VOICE_INTERNAL_SECRET: internalSecret,
  };
  const running = await startCluster(clusterEnv, {
    output: collect,
    logger: createLogger({ service: 'cluster', level: 'info', write: (line) => lines.push(line) }),
    restartBackoff: { initialMs: 100, maxMs: 2_000 },
  }).catch(async (error: unknown) => {
    removeDir();
    // The start's failure is the one to report, not a clean-up's.
    await removeStreams().catch(() => undefined);
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${lines.slice(-20).join('\n')}`);
  });
  try {
    const platform = await testPlatformOn(running, { env: clusterEnv, rootKey, internalSecret, dataDir: dir, removeDataDir: !given, logs: () => [...lines] });
    return {
      ...platform,
      output: () => [...lines],
      close: async () => {
        try {
          await platform.close();
        } finally {
          await removeStreams();
        }
      },
    };
  } catch (error) {
    await running.stop();
    removeDir();
    await removeStreams().catch(() => undefined);
    throw error;
  }
}
