// Runs `node platform/dist/src/main.js` as a child with its own temp DATA_DIR, a generated root key,
// quiet logs and rate limits high enough that the bench is never limited.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { platformNodeFlags } from '@voice/platform';
import { spawnServer, type ChildServer } from './children.js';

export interface PlatformUnderTest {
  server: ChildServer;
  apiKey: string;
  dataDir: string;
  /** Stops the platform (gracefully, so a --cpu-prof profile gets written) and removes its data. */
  stop(): Promise<number | null>;
}

/** The platform's own "platform ready" log line carries its URL. */
function readyUrlOfPlatform(line: string): string | undefined {
  try {
    const parsed = JSON.parse(line) as { msg?: unknown; url?: unknown };
    return parsed.msg === 'platform ready' && typeof parsed.url === 'string' ? parsed.url : undefined;
  } catch {
    return undefined;
  }
}

/** The environment the bench runs the platform with (either topology), and its root key. */
export function benchPlatformEnv(dataDir: string): { env: Record<string, string>; apiKey: string } {
  const apiKey = `svc_${randomBytes(32).toString('base64url')}`;
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    VOICE_ROOT_API_KEY: apiKey,
    LOG_LEVEL: 'warn',
    // Metrics on as in production, on a free port so a bench never collides with a running platform.
    VOICE_METRICS_PORT: '0',
    VOICE_RATE_LIMITS: 'starter=100000000,pro=100000000,enterprise=100000000',
    // The webhook receiver of the delivery-lag measurement listens on loopback.
    VOICE_EGRESS_ALLOW_PRIVATE: 'true',
  };
  return { env, apiKey };
}

/** The platform as `npm start` runs it (with the production Node flags unless told otherwise). */
export async function startPlatformChild(repoRoot: string, nodeArgs: readonly string[] = platformNodeFlags): Promise<PlatformUnderTest> {
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-bench-'));
  const { env, apiKey } = benchPlatformEnv(dataDir);
  const removeData = () => rmSync(dataDir, { recursive: true, force: true });
  // Also when the bench is interrupted: the children module kills the platform on exit, this removes its data.
  process.once('exit', removeData);
  try {
    const server = await spawnServer({
      name: 'platform',
      script: join(repoRoot, 'platform', 'dist', 'src', 'main.js'),
      nodeArgs: [...nodeArgs],
      env: { ...process.env, ...env },
      readyUrl: readyUrlOfPlatform,
    });
    return {
      server,
      apiKey,
      dataDir,
      stop: async () => {
        const code = await server.stop();
        removeData();
        return code;
      },
    };
  } catch (error) {
    removeData();
    throw error;
  }
}
