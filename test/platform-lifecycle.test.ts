// The platform as an operator runs it: first start and restarts, configuration errors, health
// and readiness, the fair-use rate limit, and a clean stop on SIGTERM.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway } from '@voice/gateway';
import { startPlatform } from '@voice/platform';
import { ApiClient, expectError } from './support/api-client.js';
import { inProcess, newRootKey, startTestPlatform } from './support/platform.js';
import { apiTool } from './support/tools.js';

const freshDir = () => mkdtempSync(join(tmpdir(), 'voice-life-'));

describe('root bootstrap', () => {
  test('a generated root key is announced once, works, and a restart creates no second one', async () => {
    const dir = freshDir();
    const lines: string[] = [];
    const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'silent', VOICE_METRICS_PORT: 'off' };
    const first = await startPlatform(env, { announce: (line) => lines.push(line) });
    expect(lines).toHaveLength(1);
    const key = /svc_[0-9A-Za-z]{43}/.exec(lines[0]!)![0];
    expect((await new ApiClient(first.url).get('/me', key)).body.data.scopes).toBeNull();
    await first.close();

    const second = await startPlatform(env, { announce: (line) => lines.push(line) });
    expect(lines).toHaveLength(1);
    const api = new ApiClient(second.url);
    expect((await api.get('/me', key)).status).toBe(200);
    const keys = (await api.get('/api-keys', key)).body.data;
    expect(keys.filter((k: { scopes: unknown }) => k.scopes === null)).toHaveLength(1);
    await second.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('VOICE_ROOT_API_KEY is registered as the root key, and kept across restarts', async () => {
    const dir = freshDir();
    const rootKey = newRootKey();
    const first = await startTestPlatform({ VOICE_ROOT_API_KEY: rootKey }, dir);
    const workspaceId = first.rootWorkspaceId;
    await first.close();
    const second = await startTestPlatform({ VOICE_ROOT_API_KEY: rootKey }, dir);
    expect(second.rootWorkspaceId).toBe(workspaceId);
    await second.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('configuration is checked at start and a bad value names the variable', () => {
  test.each([
    [{ VOICE_ROOT_API_KEY: 'svc_short' }, 'VOICE_ROOT_API_KEY'],
    [{ VOICE_ROOT_API_KEY: 'sk_0123456789012345678901234567890123456789' }, 'VOICE_ROOT_API_KEY'],
    // Longer than any presented credential may be: it could never authenticate.
    [{ VOICE_ROOT_API_KEY: `svc_${'a'.repeat(600)}` }, 'VOICE_ROOT_API_KEY'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ VOICE_EGRESS_ALLOW_PRIVATE: 'maybe' }, 'VOICE_EGRESS_ALLOW_PRIVATE'],
    [{ VOICE_PASSWORD_HASH_COST: '12' }, 'VOICE_PASSWORD_HASH_COST'],
    [{ VOICE_PASSWORD_HASH_COST: 'seventeen' }, 'VOICE_PASSWORD_HASH_COST'],
    [{ VOICE_RATE_LIMITS: 'starter=ten' }, 'VOICE_RATE_LIMITS'],
    [{ VOICE_PUBLIC_URL: 'not a url' }, 'VOICE_PUBLIC_URL'],
    [{ VOICE_INTERNAL_SECRET: 'tooshort' }, 'VOICE_INTERNAL_SECRET'],
    [{ MONGODB_URI: 'http://localhost' }, 'MONGODB_URI'],
    [{ VOICE_METRICS_PORT: 'on' }, 'VOICE_METRICS_PORT'],
    [{ VOICE_METRICS_PORT: '65536' }, 'VOICE_METRICS_PORT'],
    [{ VOICE_METRICS_HOST: 'http://0.0.0.0' }, 'VOICE_METRICS_HOST'],
    [{ VOICE_NATS_REPLICAS: '0' }, 'VOICE_NATS_REPLICAS'],
    [{ VOICE_NATS_REPLICAS: 'three' }, 'VOICE_NATS_REPLICAS'],
    [{ VOICE_TRUSTED_PROXIES: 'ingress.internal' }, 'VOICE_TRUSTED_PROXIES'],
    [{ VOICE_TRUSTED_PROXIES: '10.0.0.0/33' }, 'VOICE_TRUSTED_PROXIES'],
    [{ VOICE_TRUSTED_PROXIES: '0.0.0.0/0' }, 'VOICE_TRUSTED_PROXIES'],
    [{ VOICE_DRAIN_DELAY_SECONDS: '-1' }, 'VOICE_DRAIN_DELAY_SECONDS'],
    [{ VOICE_DRAIN_DELAY_SECONDS: '61' }, 'VOICE_DRAIN_DELAY_SECONDS'],
    [{ VOICE_INTERNAL_TRANSPORT: 'grpc' }, 'VOICE_INTERNAL_TRANSPORT'],
  ])('%j', async (env, variable) => {
    const dir = freshDir();
    await expect(startPlatform({ PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'silent', VOICE_METRICS_PORT: 'off', ...env }, { announce: () => {} })).rejects.toThrow(variable);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('health and limits', () => {
  test('/healthz, /readyz and /health/dependencies are public and 200 when every service answers', async () => {
    const platform = await startTestPlatform();
    const healthz = await platform.api.get('/healthz');
    expect(healthz.status).toBe(200);
    const serving = { identity: 'serving', tools: 'serving', telephony: 'serving', billing: 'serving', platformUsers: 'serving', assistants: 'serving', webhooks: 'serving', calls: 'serving', campaigns: 'serving' };
    const readyz = await platform.api.get('/readyz');
    expect(readyz.status).toBe(200);
    expect(readyz.body).toEqual({ status: 'ready', services: serving });
    const dependencies = await fetch(`${platform.running.url}/health/dependencies`);
    expect(dependencies.status).toBe(200);
    expect(await dependencies.json()).toEqual({ status: 'ok', services: serving });
    await platform.close();
  });

  test('a service that does not answer: /readyz stays 200 and names it, /health/dependencies is 503, only its routes are 503 with Retry-After', async () => {
    const platform = await startTestPlatform();
    const { services } = platform.running;
    const gateway = await startGateway({
      ...platform.env,
      PORT: '0',
      HOST: '127.0.0.1',
      VOICE_IDENTITY_URL: services.identity,
      VOICE_TOOLS_URL: 'http://127.0.0.1:9',
      VOICE_TELEPHONY_URL: services.telephony,
      VOICE_BILLING_URL: services.billing,
      VOICE_PLATFORM_USERS_URL: services.platformUsers,
      VOICE_ASSISTANTS_URL: services.assistants,
      VOICE_WEBHOOKS_URL: services.webhooks,
      VOICE_CALLS_URL: services.calls,
      VOICE_CAMPAIGNS_URL: services.campaigns,
    });
    try {
      const api = new ApiClient(gateway.url);
      const states = { identity: 'serving', tools: 'unreachable', telephony: 'serving', billing: 'serving', platformUsers: 'serving', assistants: 'serving', webhooks: 'serving', calls: 'serving', campaigns: 'serving' };
      // Readiness is the gateway's own: one service down must not take every gateway out of rotation.
      const readyz = await api.get('/readyz');
      expect(readyz.status).toBe(200);
      expect(readyz.body).toEqual({ status: 'ready', services: states });
      const dependencies = await fetch(`${gateway.url}/health/dependencies`);
      expect(dependencies.status).toBe(503);
      expect(await dependencies.json()).toEqual({ status: 'degraded', services: states });
      const tools = await api.get('/tools', platform.rootKey);
      expectError(tools, 503, 'internal_error');
      expect(tools.headers.get('retry-after')).toBe('1');
      expect(tools.text).not.toContain('127.0.0.1:9');
      expect((await api.get('/me', platform.rootKey)).status).toBe(200);
    } finally {
      await gateway.close();
      await platform.close();
    }
  });

  test('the fair-use limit is per account: 429 rate_limited with Retry-After, other accounts unaffected', async () => {
    // An hour's window: a minute's could turn over between the requests and reset the count.
    const platform = await startTestPlatform({ VOICE_RATE_LIMITS: 'starter=5,pro=5,enterprise=5', VOICE_RATE_LIMIT_WINDOW_SECONDS: '3600' });
    const a = await platform.workspace();
    const b = await platform.workspace();
    const remaining: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const response = await platform.api.get('/tools', a.key);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-limit')).toBe('5');
      remaining.push(Number(response.headers.get('ratelimit-remaining')));
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const limited = await platform.api.get('/tools', a.key);
    expectError(limited, 429, 'rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect((await platform.api.get('/tools', b.key)).status).toBe(200);
    await platform.close();
  });
});

describe('the internal transport', () => {
  test.each([
    [{}, 'in-process'],
    [{ VOICE_INTERNAL_TRANSPORT: 'http2' }, 'http2'],
  ] as const)('%j: services called %s answer alike, and a stopped one is 503 until it is started again', async (env, kind) => {
    const platform = await startTestPlatform(env);
    try {
      expect(inProcess(platform).internalTransport).toBe(kind);
      const customer = await platform.workspace();
      const created = await platform.api.post('/tools', customer.key, apiTool('transport_probe'));
      expect(created.status).toBe(201);
      expect((await platform.api.get(`/tools/${created.body.data.id}`, customer.key)).body.data).toEqual(created.body.data);
      await platform.running.stopService('tools');
      const stopped = await platform.api.get(`/tools/${created.body.data.id}`, customer.key);
      expectError(stopped, 503, 'internal_error');
      expect(stopped.headers.get('retry-after')).toBe('1');
      expect((await platform.api.get('/readyz')).body.services.tools).toBe('unreachable');
      await platform.running.startService('tools');
      expect((await platform.api.get(`/tools/${created.body.data.id}`, customer.key)).status).toBe(200);
    } finally {
      await platform.close();
    }
  });

  test('a service run alone refuses in-process: it exits 1 naming the variable, before it listens', async () => {
    const dir = freshDir();
    const child = spawn(process.execPath, [join(__dirname, '..', 'services', 'tools', 'dist', 'src', 'main.js')], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', DATA_DIR: dir, VOICE_TOOLS_PORT: '0', VOICE_METRICS_PORT: 'off', VOICE_INTERNAL_TRANSPORT: 'in-process' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration: VOICE_INTERNAL_TRANSPORT is in-process');
    expect(output).not.toContain('listening');
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('npm start', () => {
  test('the built platform starts, serves (its metrics on one port of their own), and exits 0 on SIGTERM', async () => {
    const dir = freshDir();
    // `npm start` as a user runs it: embedded storage, even where the test run has a MongoDB (CI exports MONGODB_URI).
    const { MONGODB_URI: _testRunsMongo, ...inherited } = process.env;
    const child = spawn(process.execPath, [join(__dirname, '..', 'platform', 'dist', 'src', 'main.js')], {
      env: { ...inherited, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'info', VOICE_METRICS_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`platform did not start:\n${output}`)), 20_000);
      child.stdout.on('data', () => {
        const ready = /"msg":"platform ready".*?"url":"([^"]+)"/.exec(output);
        if (ready) {
          clearTimeout(timer);
          resolve(ready[1]!);
        }
      });
    });
    const key = /Root API key \(shown once, store it now\): (svc_\w+)/.exec(output)![1]!;
    expect(output).toMatch(/"msg":"platform ready".*"internal_transport":"in-process"/);
    expect((await new ApiClient(url).get('/me', key)).status).toBe(200);
    const metricsUrls = [...output.matchAll(/"msg":"metrics listening".*?"url":"([^"]+)"/g)].map((match) => match[1]!);
    expect(metricsUrls).toHaveLength(1);
    const metrics = await (await fetch(metricsUrls[0]!)).text();
    expect(metrics).toContain('http_server_requests_total{method="GET",route="/api/v1/me",status="200"} 1');
    expect(metrics).toContain('rpc_server_requests_total{service="identity",method="voice.identity.v1.IdentityService/Authenticate",code="ok"}');
    expect(metrics).toContain('process_cpu_user_seconds_total{service="platform"}');
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(output).toContain('"msg":"shutting down"');
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);
});
