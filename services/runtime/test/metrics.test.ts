// The runtime's metrics on real servers: the RPC interceptor inside startConnectServer with a real
// Connect client over HTTP/2 (counts, durations and log lines by method and code), the /metrics
// server over HTTP/1.1, the event-consumer and process metrics, and VOICE_METRICS_HOST/PORT.
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { Code, ConnectError, createClient, type Client, type ConnectRouter } from '@connectrpc/connect';
import { createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { Health } from '@voice/proto/grpc/health/v1/health';
import { ToolsService } from '@voice/proto/voice/tools/v1/tools';
import { callHeaders, CallerSigner, type Caller } from '../src/caller.js';
import { ConfigError } from '../src/config/env.js';
import { startConnectServer, type RunningServer } from '../src/server/connect-server.js';
import { notFound } from '../src/errors.js';
import { createLogger } from '../src/logger.js';
import { defaultMetricsPort, readMetricsConfig } from '../src/metrics/config.js';
import { eventConsumerMetrics } from '../src/metrics/events.js';
import { httpServerMetrics } from '../src/metrics/http.js';
import { collectProcessMetrics, counterIn, histogramIn, MetricsRegistry } from '../src/metrics/registry.js';
import { rpcCodeOf } from '../src/metrics/rpc.js';
import { startMetricsServer, type MetricsServer } from '../src/metrics/server.js';

/** The value of a metric's sample with exactly these labels (histograms: `_count` and `_sum` by name). */
async function sampleOf(registry: MetricsRegistry, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const metricName = name.replace(/_(count|sum)$/, '');
  const metric = registry.getSingleMetric(name) ?? registry.getSingleMetric(metricName);
  if (!metric) return undefined;
  const { values } = await metric.get();
  const wanted = Object.entries(labels);
  const found = values.find(
    (value) =>
      ((value as { metricName?: string }).metricName ?? name) === name &&
      Object.keys(value.labels).length === wanted.length &&
      wanted.every(([key, expected]) => String(value.labels[key]) === expected),
  );
  return found?.value;
}

// connect-node reports on the console when it cannot end a stream the client already cancelled
// (the cancelled Watch below); that is the library's own noise, kept out of the test output.
const cancelledWatchNoise = 'handler for rpc Watch of grpc.health.v1.Health failed';
const consoleError = console.error.bind(console);
beforeAll(() => {
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith(cancelledWatchNoise)) return;
    consoleError(...args);
  });
});
afterAll(() => jest.restoreAllMocks());

describe('the RPC interceptor of startConnectServer', () => {
  const signer = new CallerSigner(randomBytes(32));
  const caller: Caller = {
    workspaceId: '5b0e9f3a-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
    principal: { type: 'service_account', id: 'p-1', name: 'test key' },
    scopes: null,
    requestId: 'req-metrics-1',
  };
  const getTool = 'voice.tools.v1.ToolsService/GetTool';
  const registry = new MetricsRegistry();
  const logLines: Record<string, unknown>[] = [];
  let server: RunningServer;
  let sessions: Http2SessionManager;
  let tools: Client<typeof ToolsService>;
  let health: Client<typeof Health>;

  const routes = (router: ConnectRouter) =>
    router.service(ToolsService, {
      getTool(request) {
        if (request.id === 'missing') throw notFound('tool');
        if (request.id === 'throw') throw new Error('the disk is full');
        return { tool: { id: request.id, name: 'secret tool name' } };
      },
    });
  const start = (name: string) =>
    startConnectServer({
      name,
      host: '127.0.0.1',
      port: 0,
      signer,
      logger: createLogger({ service: name, level: 'debug', write: (line) => logLines.push(JSON.parse(line) as Record<string, unknown>) }),
      routes,
      serviceNames: [ToolsService.typeName],
      registry,
    });
  /** Without a caller (null) the call carries no signed caller header. */
  const call = (id: string, who: Caller | null = caller) => tools.getTool({ id }, who ? { headers: callHeaders(signer, who) } : {});
  const codeOf = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      return ConnectError.from(error).code;
    }
    return undefined;
  };
  const requests = (service: string, method: string, code: string) => sampleOf(registry, 'rpc_server_requests_total', { service, method, code });

  beforeAll(async () => {
    server = await start('tools');
    sessions = new Http2SessionManager(server.url);
    const transport = createConnectTransport({ baseUrl: server.url, httpVersion: '2', sessionManager: sessions });
    tools = createClient(ToolsService, transport);
    health = createClient(Health, transport);
  });
  afterAll(async () => {
    sessions.abort();
    await server.close();
  });
  beforeEach(() => {
    logLines.length = 0;
  });

  test('a successful call: counted as ok, timed, one debug line with the request id and no body', async () => {
    await call('t-1');
    await call('t-2');
    expect(await requests('tools', getTool, 'ok')).toBe(2);
    expect(await sampleOf(registry, 'rpc_server_request_duration_seconds_count', { service: 'tools', method: getTool, code: 'ok' })).toBe(2);
    const sum = await sampleOf(registry, 'rpc_server_request_duration_seconds_sum', { service: 'tools', method: getTool, code: 'ok' });
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(5);
    const rpcLines = logLines.filter((line) => line.msg === 'rpc');
    expect(rpcLines).toHaveLength(2);
    expect(rpcLines[0]).toEqual({
      time: expect.any(String),
      level: 'debug',
      msg: 'rpc',
      service: 'tools',
      request_id: 'req-metrics-1',
      method: getTool,
      code: 'ok',
      duration_ms: expect.any(Number),
    });
    expect(JSON.stringify(logLines)).not.toContain('secret tool name');
  });

  test('failures are counted by their Connect code and logged at warn', async () => {
    expect(await codeOf(call('missing', { ...caller, requestId: 'req-missing' }))).toBe(Code.NotFound);
    expect(await codeOf(call('throw'))).toBe(Code.Internal);
    // The caller check is inside the metrics: its refusals count too.
    expect(await codeOf(call('t-3', null))).toBe(Code.Unauthenticated);
    expect(await codeOf(tools.deleteTool({ id: 't-1' }, { headers: callHeaders(signer, caller) }))).toBe(Code.Unimplemented);
    expect(await requests('tools', getTool, 'not_found')).toBe(1);
    expect(await requests('tools', getTool, 'internal')).toBe(1);
    expect(await requests('tools', getTool, 'unauthenticated')).toBe(1);
    expect(await requests('tools', 'voice.tools.v1.ToolsService/DeleteTool', 'unimplemented')).toBe(1);
    expect(await sampleOf(registry, 'rpc_server_request_duration_seconds_count', { service: 'tools', method: getTool, code: 'not_found' })).toBe(1);
    const failed = logLines.filter((line) => line.msg === 'rpc failed');
    expect(failed.map((line) => [line.level, line.code, line.request_id])).toEqual([
      ['warn', 'not_found', 'req-missing'],
      ['warn', 'internal', 'req-metrics-1'],
      ['warn', 'unauthenticated', undefined],
      ['warn', 'unimplemented', 'req-metrics-1'],
    ]);
    // The unexpected error's text is only in the caller check's error line, never in the RPC line.
    expect(JSON.stringify(failed)).not.toContain('disk');
    expect(logLines.filter((line) => line.level === 'error').map((line) => line.msg)).toEqual(['call failed']);
  });

  test('health checks are counted like any RPC; a Watch counts when its stream ends, a cancelled one as canceled', async () => {
    await health.check({ service: '' });
    expect(await requests('tools', 'grpc.health.v1.Health/Check', 'ok')).toBe(1);
    const abort = new AbortController();
    const watch = health.watch({ service: '' }, { signal: abort.signal })[Symbol.asyncIterator]();
    await watch.next();
    expect(await requests('tools', 'grpc.health.v1.Health/Watch', 'ok')).toBeUndefined();
    abort.abort();
    // The handler ends the stream quietly once the client has gone: counted as cancelled, not ok.
    const deadline = Date.now() + 5_000;
    const cancelled = () => requests('tools', 'grpc.health.v1.Health/Watch', 'canceled');
    while ((await cancelled()) === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await cancelled()).toBe(1);
    const watches = await registry.getSingleMetric('rpc_server_requests_total')!.get();
    expect(watches.values.filter((value) => value.labels.method === 'grpc.health.v1.Health/Watch').map((value) => value.labels.code)).toEqual(['canceled']);
  });

  test('a second server in the process reuses the metrics, told apart by its service label', async () => {
    const other = await start('billing');
    const otherSessions = new Http2SessionManager(other.url);
    try {
      const client = createClient(ToolsService, createConnectTransport({ baseUrl: other.url, httpVersion: '2', sessionManager: otherSessions }));
      await client.getTool({ id: 't-9' }, { headers: callHeaders(signer, caller) });
      expect(await requests('billing', getTool, 'ok')).toBe(1);
      expect(await requests('tools', getTool, 'ok')).toBe(2);
    } finally {
      otherSessions.abort();
      await other.close();
    }
  });

  test('code names are the Connect protocol\'s', () => {
    expect(rpcCodeOf(undefined)).toBe('ok');
    expect(rpcCodeOf(new ConnectError('x', Code.DeadlineExceeded))).toBe('deadline_exceeded');
    expect(rpcCodeOf(new ConnectError('x', Code.PermissionDenied))).toBe('permission_denied');
    expect(rpcCodeOf(new Error('plain'))).toBe('unknown');
  });
});

/** One HTTP/1.1 request, answered as status, headers and body text. */
function get(url: string, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string; httpVersion: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body, httpVersion: res.httpVersion }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startMetricsServer', () => {
  const registry = new MetricsRegistry();
  let server: MetricsServer;

  beforeAll(async () => {
    counterIn(registry, { name: 'test_things_total', help: 'Things.', labelNames: ['kind'] as const }).inc({ kind: 'a' }, 3);
    server = await startMetricsServer({ host: '127.0.0.1', port: 0, registry });
  });
  afterAll(() => server.close());

  test('GET /metrics answers the text exposition over HTTP/1.1', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/metrics`);
    const response = await get(server.url);
    expect(response.status).toBe(200);
    expect(response.httpVersion).toBe('1.1');
    expect(response.headers['content-type']).toBe(registry.contentType);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.body).toContain('# HELP test_things_total Things.\n# TYPE test_things_total counter\ntest_things_total{kind="a"} 3\n');
    expect((await get(`${server.url}?name=x`)).status).toBe(200);
  });

  test('HEAD /metrics has no body; other methods are 405; every other path is 404', async () => {
    const head = await get(server.url, 'HEAD');
    expect([head.status, head.body]).toEqual([200, '']);
    const post = await get(server.url, 'POST');
    expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD']);
    for (const path of ['/', '/metrics/', '/metricsx', '/healthz']) expect((await get(`http://127.0.0.1:${server.port}${path}`)).status).toBe(404);
  });

  test('close() does not wait for a scraper\'s idle keep-alive connection, and the port is released', async () => {
    const other = await startMetricsServer({ host: '127.0.0.1', port: 0, registry });
    const response = await fetch(other.url);
    expect(response.status).toBe(200);
    await response.text();
    const startedAt = Date.now();
    await other.close();
    expect(Date.now() - startedAt).toBeLessThan(1000);
    await expect(get(other.url)).rejects.toThrow(/ECONNREFUSED/);
  });

  test('a port in use is a start failure', async () => {
    await expect(startMetricsServer({ host: '127.0.0.1', port: server.port, registry })).rejects.toThrow(/EADDRINUSE/);
  });
});

describe('the registry helpers', () => {
  test('get-or-create: the same name is the same metric; another type under it is refused', () => {
    const registry = new MetricsRegistry();
    const first = counterIn(registry, { name: 'x_total', help: 'X.', labelNames: ['a'] as const });
    expect(counterIn(registry, { name: 'x_total', help: 'X.', labelNames: ['a'] as const })).toBe(first);
    expect(() => histogramIn(registry, { name: 'x_total', help: 'X.' })).toThrow('x_total');
  });

  test('process metrics are collected once per registry, with the service label', async () => {
    const registry = new MetricsRegistry();
    collectProcessMetrics('billing', registry);
    collectProcessMetrics('billing', registry);
    const text = await registry.metrics();
    expect(text).toMatch(/^process_cpu_user_seconds_total\{service="billing"\} [\d.e-]+$/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes\{service="billing"\} \d+$/m);
  });

  test('HTTP metrics are labelled by method, route template and status', async () => {
    const registry = new MetricsRegistry();
    const metrics = httpServerMetrics(registry);
    metrics.observe({ method: 'GET', route: '/api/v1/tools/:id', status: 404 }, 0.02);
    httpServerMetrics(registry).observe({ method: 'GET', route: '/api/v1/tools/:id', status: 404 }, 0.03);
    expect(await sampleOf(registry, 'http_server_requests_total', { method: 'GET', route: '/api/v1/tools/:id', status: '404' })).toBe(2);
    expect(await sampleOf(registry, 'http_server_request_duration_seconds_sum', { method: 'GET', route: '/api/v1/tools/:id', status: '404' })).toBeCloseTo(0.05);
  });
});

describe('eventConsumerMetrics', () => {
  const now = Date.parse('2026-07-01T12:00:00.000Z');

  test('the lag of an applied event is now minus its creation; outcomes are counted', async () => {
    const registry = new MetricsRegistry();
    const metrics = eventConsumerMetrics({ consumer: 'billing-usage', stream: 'USAGE' }, { registry, clock: () => now });
    metrics.applied(new Date(now - 1500));
    metrics.applied(new Date(now - 500));
    // A producer's clock slightly ahead is no negative lag.
    metrics.applied(new Date(now + 200));
    // Without a creation time the event still counts as applied, with no lag observed.
    metrics.applied(undefined);
    metrics.duplicate();
    metrics.failed();
    metrics.failed();
    const labels = { consumer: 'billing-usage', stream: 'USAGE' };
    expect(await sampleOf(registry, 'event_consumer_lag_seconds_count', labels)).toBe(3);
    expect(await sampleOf(registry, 'event_consumer_lag_seconds_sum', labels)).toBeCloseTo(2);
    const outcome = (name: string) => sampleOf(registry, 'event_consumer_events_total', { consumer: 'billing-usage', outcome: name });
    expect([await outcome('applied'), await outcome('duplicate'), await outcome('failed')]).toEqual([4, 1, 2]);
    // A second consumer in the same process shares the metrics under its own labels.
    eventConsumerMetrics({ consumer: 'telephony-wallets', stream: 'WALLETS' }, { registry, clock: () => now }).applied(new Date(now - 100));
    expect(await sampleOf(registry, 'event_consumer_lag_seconds_count', { consumer: 'telephony-wallets', stream: 'WALLETS' })).toBe(1);
  });
});

describe('readMetricsConfig', () => {
  const configErrorOf = (env: Record<string, string>): ConfigError => {
    try {
      readMetricsConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return error as ConfigError;
    }
    throw new Error('expected a ConfigError');
  };

  test('defaults: loopback, port 9464', () => {
    expect(defaultMetricsPort).toBe(9464);
    expect(readMetricsConfig({})).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(readMetricsConfig({ VOICE_METRICS_PORT: ' ', VOICE_METRICS_HOST: '' })).toEqual({ host: '127.0.0.1', port: 9464 });
  });

  test('a port, 0 for any free one, or off', () => {
    expect(readMetricsConfig({ VOICE_METRICS_PORT: '9100' })).toEqual({ host: '127.0.0.1', port: 9100 });
    expect(readMetricsConfig({ VOICE_METRICS_PORT: '0' })).toEqual({ host: '127.0.0.1', port: 0 });
    expect(readMetricsConfig({ VOICE_METRICS_PORT: 'off' })).toBeUndefined();
    expect(readMetricsConfig({ VOICE_METRICS_PORT: 'OFF' })).toBeUndefined();
  });

  test('a host: an IP address or a host name', () => {
    for (const host of ['0.0.0.0', '::', '::1', '10.1.2.3', 'localhost', 'metrics.internal']) {
      expect(readMetricsConfig({ VOICE_METRICS_HOST: host })).toEqual({ host, port: 9464 });
    }
  });

  test.each(['on', '-1', '65536', '80.5', '9464x', 'false'])('VOICE_METRICS_PORT=%s is a ConfigError naming it', (value) => {
    expect(configErrorOf({ VOICE_METRICS_PORT: value }).message).toBe(
      `Invalid configuration: VOICE_METRICS_PORT must be a port (0 to 65535, 0 for any free one) or off, got "${value}"`,
    );
  });

  test.each(['http://0.0.0.0', '0.0.0.0:9464', 'a host', '[::]', '-metrics'])('VOICE_METRICS_HOST=%s is a ConfigError naming it', (value) => {
    expect(configErrorOf({ VOICE_METRICS_HOST: value }).message).toContain('VOICE_METRICS_HOST must be an IP address or a host name');
  });
});
