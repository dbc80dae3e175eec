// The built gateway (`tsc -b` first) as its own process, the way its Deployment runs it: ready
// while no service answers (readiness is its own), and on SIGTERM /readyz turns 503 at once while
// every other route is still served for VOICE_DRAIN_DELAY_SECONDS; then the listener closes and
// the process exits 0.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

const unreachable = 'http://127.0.0.1:9';

test('SIGTERM: /readyz 503 while the gateway still serves, then the listener closes and it exits 0', async () => {
  const child = spawn(process.execPath, [join(__dirname, '..', 'gateway', 'dist', 'src', 'main.js')], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      VOICE_METRICS_PORT: 'off',
      VOICE_INTERNAL_SECRET: randomBytes(32).toString('hex'),
      VOICE_DRAIN_DELAY_SECONDS: '2',
      VOICE_IDENTITY_URL: unreachable,
      VOICE_TOOLS_URL: unreachable,
      VOICE_TELEPHONY_URL: unreachable,
      VOICE_BILLING_URL: unreachable,
      VOICE_PLATFORM_USERS_URL: unreachable,
      VOICE_ASSISTANTS_URL: unreachable,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const port = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${output}`)), 15_000);
      child.stdout.on('data', () => {
        const listening = /"msg":"listening".*?"port":(\d+)/.exec(output);
        if (listening) {
          clearTimeout(timer);
          resolve(listening[1]!);
        }
      });
      void exited.then(() => reject(new Error(`gateway exited:\n${output}`)));
    });
    const url = `http://127.0.0.1:${port}`;
    const get = async (path: string) => {
      const response = await fetch(`${url}${path}`);
      return { status: response.status, body: (await response.json()) as { status: string; services: Record<string, string> } };
    };
    const down = { identity: 'unreachable', tools: 'unreachable', telephony: 'unreachable', billing: 'unreachable', platformUsers: 'unreachable', assistants: 'unreachable', webhooks: 'unreachable', calls: 'unreachable', campaigns: 'unreachable' };

    expect(await get('/readyz')).toEqual({ status: 200, body: { status: 'ready', services: down } });
    expect(await get('/health/dependencies')).toEqual({ status: 503, body: { status: 'degraded', services: down } });

    const signalled = Date.now();
    child.kill('SIGTERM');
    // The signal is handled as soon as it arrives: /readyz turns 503 within moments.
    let readyz = await get('/readyz');
    while (readyz.status === 200 && Date.now() - signalled < 1_000) readyz = await get('/readyz');
    expect(readyz).toEqual({ status: 503, body: { status: 'draining', services: down } });
    // Everything else is still served meanwhile, on new connections too.
    expect((await get('/healthz')).status).toBe(200);
    expect((await fetch(`${url}/api/v1/openapi.json`)).status).toBe(200);
    expect(Date.now() - signalled).toBeLessThan(2_000);

    expect(await exited).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(2_000);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    expect(output).toContain('"msg":"draining"');
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}, 30_000);
