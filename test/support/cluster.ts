// Starts the platform as separate processes (the built entry points, as `npm run start:cluster`
// does) on free ports with a fresh data directory, behind the same helpers as startTestPlatform.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster, type RunningCluster } from '@voice/platform';
import { createLogger } from '@voice/runtime';
import { newRootKey, testPlatformOn, type TestPlatform } from './platform.js';

export interface TestCluster extends TestPlatform<RunningCluster> {
  /** Every line the children and the supervisor wrote (JSON log lines, mostly), oldest first. */
  output(): string[];
}

export async function startTestCluster(env: Record<string, string> = {}): Promise<TestCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'voice-cluster-'));
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
    VOICE_IDENTITY_PORT: '0',
    VOICE_TOOLS_PORT: '0',
    VOICE_BILLING_PORT: '0',
    VOICE_TELEPHONY_PORT: '0',
    VOICE_PLATFORM_USERS_PORT: '0',
    DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    ...env,
    VOICE_ROOT_API_KEY: rootKey,
    VOICE_INTERNAL_SECRET: internalSecret,
  };
  const running = await startCluster(clusterEnv, {
    output: collect,
    logger: createLogger({ service: 'cluster', level: 'info', write: (line) => lines.push(line) }),
    restartBackoff: { initialMs: 100, maxMs: 2_000 },
  }).catch((error: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${lines.slice(-20).join('\n')}`);
  });
  try {
    const platform = await testPlatformOn(running, { env: clusterEnv, rootKey, internalSecret, dataDir: dir, removeDataDir: true });
    return { ...platform, output: () => [...lines] };
  } catch (error) {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
