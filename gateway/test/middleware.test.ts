// The gateway's middleware on a real express app and port: request ids, JSON bodies, scopes,
// plan features, the rate limit and the RestRouter's 405, every failure in the error envelope.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type RequestHandler } from 'express';
import { z } from 'zod';
import type { Feature } from '@voice/runtime/access';
import { CallerSigner } from '@voice/runtime/caller';
import { createLogger } from '@voice/runtime/logger';
import type { AuthContext } from '../src/auth/auth-context.js';
import { errorHandler } from '../src/errors/error-handler.js';
import { HttpError } from '../src/errors/http-error.js';
import { jsonBody } from '../src/middleware/json-body.js';
import { MemoryWindowCounter } from '@voice/runtime/counters';
import { rateLimit } from '../src/middleware/rate-limit.js';
import { requestId } from '../src/middleware/request-id.js';
import { requireFeature } from '../src/middleware/require-feature.js';
import { requireScope } from '../src/middleware/require-scope.js';
import { RestRouter } from '../src/rest/router.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * Stands in for authentication: the caller is described by test headers (workspace id, plan,
 * features, scopes as JSON, null for unrestricted).
 */
const fakeAuth: RequestHandler = (req, res, next) => {
  const auth: AuthContext = {
    principal: { type: 'service_account', id: 'principal-1', name: 'test key' },
    workspace: {
      id: req.get('x-test-workspace') ?? 'ws-1',
      name: 'Acme',
      plan: req.get('x-test-plan') ?? 'pro',
      features: (req.get('x-test-features') ?? '').split(',').filter(Boolean),
      white_label: false,
      status: 'active',
      created_at: '2026-01-01T00:00:00.000Z',
    },
    scopes: JSON.parse(req.get('x-test-scopes') ?? 'null') as string[] | null,
    credentialId: 'key-1',
    platformIds: [],
    audience: '',
  };
  res.locals.auth = auth;
  next();
};

interface Running {
  url: string;
  close(): Promise<void>;
}

async function listen(app: Express): Promise<Running> {
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** An app with the request id first and the error handler last, as buildGatewayApp orders them. */
function appWith(register: (app: Express) => void): { app: Express; logLines: string[] } {
  const logLines: string[] = [];
  const app = express();
  app.use(requestId());
  register(app);
  app.use((req, _res, next) => next(new HttpError('not_found', `no route for ${req.method} ${req.path}`)));
  app.use(errorHandler(createLogger({ service: 'gateway-test', level: 'error', write: (line) => logLines.push(line) })));
  return { app, logLines };
}

interface ErrorEnvelope {
  error: { code: string; message: string; details?: { field: string; issue: string }[] };
}

const ok: RequestHandler = (req, res) => {
  res.json({ data: { body: req.body as unknown } });
};

describe('requestId', () => {
  let running: Running;
  beforeAll(async () => {
    running = await listen(appWith((app) => app.get('/echo', (_req, res) => void res.json({ id: res.locals.requestId as string }))).app);
  });
  afterAll(() => running.close());

  test.each(['abc-123', 'A.b_c:d-e', 'x'.repeat(128), '0b5f3c1e-2a4d-4e6f-8a9b-0c1d2e3f4a5b'])('a sane id (%s) is echoed', async (id) => {
    const response = await fetch(`${running.url}/echo`, { headers: { 'X-Request-Id': id } });
    expect(response.headers.get('x-request-id')).toBe(id);
    expect(await response.json()).toEqual({ id });
  });

  test.each(['has space', 'x'.repeat(129), 'semi;colon', 'quote"d', 'caf\u00e9', '<script>'])('an insane id (%j) is replaced by a new UUID', async (id) => {
    const response = await fetch(`${running.url}/echo`, { headers: { 'X-Request-Id': id } });
    const sent = response.headers.get('x-request-id');
    expect(sent).toMatch(uuidPattern);
    expect(await response.json()).toEqual({ id: sent });
  });

  test('a request without one gets a new UUID, and so do errors', async () => {
    const first = await fetch(`${running.url}/echo`);
    const second = await fetch(`${running.url}/nowhere`);
    expect(first.headers.get('x-request-id')).toMatch(uuidPattern);
    expect(second.status).toBe(404);
    expect(second.headers.get('x-request-id')).toMatch(uuidPattern);
    expect(first.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'));
    expect(((await second.json()) as ErrorEnvelope).error.code).toBe('not_found');
  });
});

describe('jsonBody', () => {
  let running: Running;
  beforeAll(async () => {
    running = await listen(appWith((app) => app.post('/things', ...jsonBody(), ok)).app);
  });
  afterAll(() => running.close());

  const post = (body: string | undefined, contentType?: string) =>
    fetch(`${running.url}/things`, { method: 'POST', body, headers: contentType ? { 'Content-Type': contentType } : {} });

  async function expectError(response: Response, status: number, message: RegExp): Promise<ErrorEnvelope> {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const envelope = (await response.json()) as ErrorEnvelope;
    expect(envelope.error.code).toBe('invalid_request');
    expect(envelope.error.message).toMatch(message);
    return envelope;
  }

  test('a JSON object is parsed', async () => {
    const response = await post(JSON.stringify({ name: 'lookup', nested: { list: [1, 2] } }), 'application/json');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { body: { name: 'lookup', nested: { list: [1, 2] } } } });
  });

  test('a charset parameter on application/json is fine', async () => {
    const response = await post('{"a":1}', 'application/json; charset=utf-8');
    expect(response.status).toBe(200);
  });

  test('no body at all is an empty object', async () => {
    const response = await post(undefined);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { body: {} } });
  });

  test('another content type is 400', async () => {
    await expectError(await post('{"a":1}', 'text/plain'), 400, /Content-Type: application\/json/);
    await expectError(await post('a=1', 'application/x-www-form-urlencoded'), 400, /Content-Type: application\/json/);
  });

  test('a body without a content type is 400', async () => {
    const response = await fetch(`${running.url}/things`, { method: 'POST', body: new Uint8Array(Buffer.from('{"a":1}')) });
    await expectError(response, 400, /Content-Type: application\/json/);
  });

  test('malformed JSON is 400 with a body detail', async () => {
    const envelope = await expectError(await post('{"a":', 'application/json'), 400, /not valid JSON/);
    expect(envelope.error.details).toEqual([{ field: 'body', issue: 'is not valid JSON' }]);
  });

  test('an array is 400: the body must be an object', async () => {
    const envelope = await expectError(await post('[1,2]', 'application/json'), 400, /must be a JSON object/);
    expect(envelope.error.details).toEqual([{ field: 'body', issue: 'must be a JSON object' }]);
  });

  test.each(['"text"', '42', 'null', 'true'])('the JSON scalar %s is 400', async (body) => {
    const response = await post(body, 'application/json');
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorEnvelope).error.code).toBe('invalid_request');
  });

  test('a charset other than UTF-8 is 400', async () => {
    await expectError(await post('{"a":1}', 'application/json; charset=latin1'), 400, /UTF-8/);
  });

  test('exactly 1 MiB is accepted; one byte more is 413 invalid_request', async () => {
    const filler = (size: number) => JSON.stringify({ pad: 'x'.repeat(size - '{"pad":""}'.length) });
    expect(filler(1024 * 1024)).toHaveLength(1024 * 1024);
    expect((await post(filler(1024 * 1024), 'application/json')).status).toBe(200);
    await expectError(await post(filler(1024 * 1024 + 1), 'application/json'), 413, /larger than 1 MiB/);
  });
});

describe('requireScope and requireFeature', () => {
  let running: Running;
  beforeAll(async () => {
    running = await listen(
      appWith((app) => {
        app.get('/calls', fakeAuth, requireScope('calls:read'), ok);
        app.post('/calls', fakeAuth, requireScope('calls:write'), ok);
        app.get('/automations', fakeAuth, requireScope('automations:read', 'calls:read'), ok);
        app.get('/mcp', fakeAuth, requireFeature('mcp'), ok);
      }).app,
    );
  });
  afterAll(() => running.close());

  const get = (path: string, headers: Record<string, string>) => fetch(`${running.url}${path}`, { headers });
  const scopes = (granted: string[] | null) => ({ 'x-test-scopes': JSON.stringify(granted) });

  test('the exact scope passes; write implies read', async () => {
    expect((await get('/calls', scopes(['calls:read']))).status).toBe(200);
    expect((await get('/calls', scopes(['calls:write']))).status).toBe(200);
    expect((await fetch(`${running.url}/calls`, { method: 'POST', headers: scopes(['calls:write']) })).status).toBe(200);
  });

  test('an unrestricted credential passes every scope check', async () => {
    expect((await get('/calls', scopes(null))).status).toBe(200);
    expect((await fetch(`${running.url}/calls`, { method: 'POST', headers: scopes(null) })).status).toBe(200);
  });

  test('read does not imply write: 403 forbidden with an insufficient_scope challenge', async () => {
    const response = await fetch(`${running.url}/calls`, { method: 'POST', headers: scopes(['calls:read']) });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="calls:write"');
    const envelope = (await response.json()) as ErrorEnvelope;
    expect(envelope.error.code).toBe('forbidden');
    expect(envelope.error.message).toContain('calls:write');
  });

  test('a missing scope is 403, naming it', async () => {
    const response = await get('/calls', scopes(['leads:write']));
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('insufficient_scope');
    expect(((await response.json()) as ErrorEnvelope).error).toEqual({ code: 'forbidden', message: 'this credential lacks the calls:read scope' });
  });

  test('any one of several scopes passes; the challenge names the first', async () => {
    expect((await get('/automations', scopes(['calls:read']))).status).toBe(200);
    expect((await get('/automations', scopes(['automations:write']))).status).toBe(200);
    const refused = await get('/automations', scopes([]));
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="automations:read"');
  });

  test('requireScope needs a scope', () => {
    expect(() => requireScope()).toThrow('at least one scope');
  });

  test('a workspace without the feature is 403 forbidden', async () => {
    const response = await get('/mcp', { 'x-test-plan': 'starter', 'x-test-features': 'automations' });
    expect(response.status).toBe(403);
    const envelope = (await response.json()) as ErrorEnvelope;
    expect(envelope.error.code).toBe('forbidden');
    expect(envelope.error.message).toBe('the starter plan does not include the mcp feature');
  });

  test('a workspace with the feature passes', async () => {
    expect((await get('/mcp', { 'x-test-features': 'automations,mcp' })).status).toBe(200);
  });

  test('an unknown feature is refused when the route is built', () => {
    expect(() => requireFeature('telepathy' as Feature)).toThrow('unknown feature telepathy');
  });
});

describe('rateLimit', () => {
  const windowMs = 60_000;
  // A window boundary, so Reset counts whole windows from here.
  const start = 1_800_000_000_000;
  let now = start;
  const clock = () => now;
  let running: Running;

  beforeAll(async () => {
    expect(start % windowMs).toBe(0);
    const counter = new MemoryWindowCounter(windowMs, clock);
    const limit = rateLimit({ perPlan: { starter: 2, pro: 3 }, windowSeconds: 60 }, counter, clock);
    running = await listen(appWith((app) => app.get('/limited', fakeAuth, limit, ok)).app);
  });
  afterAll(() => running.close());

  const hit = (workspace: string, plan = 'starter') => fetch(`${running.url}/limited`, { headers: { 'x-test-workspace': workspace, 'x-test-plan': plan } });
  const limits = (response: Response) => ({
    status: response.status,
    limit: response.headers.get('ratelimit-limit'),
    remaining: response.headers.get('ratelimit-remaining'),
    reset: response.headers.get('ratelimit-reset'),
    retryAfter: response.headers.get('retry-after'),
  });

  test('headers on every response; 429 rate_limited with Retry-After once over; reset with the window', async () => {
    now = start;
    expect(limits(await hit('ws-a'))).toEqual({ status: 200, limit: '2', remaining: '1', reset: '60', retryAfter: null });
    now = start + 15_000;
    expect(limits(await hit('ws-a'))).toEqual({ status: 200, limit: '2', remaining: '0', reset: '45', retryAfter: null });
    now = start + 30_500;
    const refused = await hit('ws-a');
    expect(limits(refused)).toEqual({ status: 429, limit: '2', remaining: '0', reset: '30', retryAfter: '30' });
    const envelope = (await refused.json()) as ErrorEnvelope;
    expect(envelope.error.code).toBe('rate_limited');
    expect(envelope.error.message).toContain('retry after 30 s');

    // Another workspace has its own window.
    expect(limits(await hit('ws-b'))).toEqual({ status: 200, limit: '2', remaining: '1', reset: '30', retryAfter: null });

    // Still refused until the window ends, then counted afresh.
    now = start + 59_999;
    expect(limits(await hit('ws-a'))).toMatchObject({ status: 429, reset: '1', retryAfter: '1' });
    now = start + windowMs;
    expect(limits(await hit('ws-a'))).toEqual({ status: 200, limit: '2', remaining: '1', reset: '60', retryAfter: null });
  });

  test('the limit follows the plan; an unknown plan gets the smallest', async () => {
    now = start + 10 * windowMs;
    const pro = [await hit('ws-pro', 'pro'), await hit('ws-pro', 'pro'), await hit('ws-pro', 'pro'), await hit('ws-pro', 'pro')];
    expect(pro.map((r) => [r.status, r.headers.get('ratelimit-limit'), r.headers.get('ratelimit-remaining')])).toEqual([
      [200, '3', '2'],
      [200, '3', '1'],
      [200, '3', '0'],
      [429, '3', '0'],
    ]);
    const unknown = [await hit('ws-odd', 'legacy'), await hit('ws-odd', 'legacy'), await hit('ws-odd', 'legacy')];
    expect(unknown.map((r) => [r.status, r.headers.get('ratelimit-limit')])).toEqual([
      [200, '2'],
      [200, '2'],
      [429, '2'],
    ]);
  });
});

describe('MemoryWindowCounter', () => {
  test('windows are aligned to the window length and counted per key', async () => {
    let now = 120_500;
    const counter = new MemoryWindowCounter(1000, () => now);
    expect(await counter.hit('a')).toEqual({ count: 1, resetAt: 121_000 });
    expect(await counter.hit('a')).toEqual({ count: 2, resetAt: 121_000 });
    expect(await counter.hit('b')).toEqual({ count: 1, resetAt: 121_000 });
    now = 121_000;
    expect(await counter.hit('a')).toEqual({ count: 1, resetAt: 122_000 });
  });
});

describe('RestRouter', () => {
  const signer = new CallerSigner(randomBytes(32));
  const docOf = (id: string) => ({ id, summary: id, toolset: 'account' as const, response: z.unknown() });
  let running: Running;
  let authenticated: number;
  let logLines: string[];

  beforeAll(async () => {
    authenticated = 0;
    const countingAuth: RequestHandler = (req, res, next) => {
      authenticated += 1;
      fakeAuth(req, res, next);
    };
    const rest = new RestRouter([countingAuth], signer);
    rest.operation({ method: 'get', path: '/things', scope: 'calls:read', doc: docOf('listThings'), handle: async () => ({ body: { data: [] } }) });
    rest.operation({
      method: 'post',
      path: '/things',
      scope: 'calls:write',
      body: z.record(z.string(), z.unknown()),
      doc: { ...docOf('createThing'), status: 201 },
      handle: async (call) => ({ body: { data: call.body } }),
    });
    rest.operation({
      method: 'get',
      path: '/things/:id',
      scope: 'calls:read',
      feature: 'mcp',
      doc: docOf('getThing'),
      handle: async () => {
        throw new HttpError('not_found', 'thing not found');
      },
    });
    rest.operation({
      method: 'delete',
      path: '/things/:id',
      scope: 'calls:write',
      doc: docOf('deleteThing'),
      handle: async () => {
        throw new Error('database path /var/lib/voice/x.sqlite unreadable');
      },
    });
    const built = appWith((app) => app.use('/api/v1', rest.finish()));
    logLines = built.logLines;
    running = await listen(built.app);
  });
  afterAll(() => running.close());

  test('records the methods of each path, GET with HEAD', () => {
    const rest = new RestRouter([], signer);
    rest.operation({ method: 'get', path: '/a', doc: docOf('getA'), handle: async () => ({ body: {} }) });
    rest.operation({ method: 'patch', path: '/a', doc: docOf('updateA'), handle: async () => ({ body: {} }) });
    expect([...rest.paths().get('/a')!]).toEqual(['GET', 'HEAD', 'PATCH']);
  });

  test('a known path with another method is 405 invalid_request with Allow', async () => {
    const response = await fetch(`${running.url}/api/v1/things`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
    const envelope = (await response.json()) as ErrorEnvelope;
    expect(envelope.error.code).toBe('invalid_request');
    expect(envelope.error.message).toContain('GET, HEAD, POST');
    const other = await fetch(`${running.url}/api/v1/things/123`, { method: 'PUT' });
    expect(other.status).toBe(405);
    expect(other.headers.get('allow')).toBe('GET, HEAD, DELETE');
  });

  test('routes run authentication, scope, gates and body rules before the handler', async () => {
    authenticated = 0;
    const created = await fetch(`${running.url}/api/v1/things`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-test-scopes': '["calls:write"]' },
      body: '{"name":"x"}',
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ data: { name: 'x' } });
    expect(authenticated).toBe(1);
    const badBody = await fetch(`${running.url}/api/v1/things`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-test-scopes': '["calls:write"]' },
      body: '[]',
    });
    expect(badBody.status).toBe(400);
    const readOnly = await fetch(`${running.url}/api/v1/things`, { method: 'POST', headers: { 'x-test-scopes': '["calls:read"]' } });
    expect(readOnly.status).toBe(403);
    const gated = await fetch(`${running.url}/api/v1/things/1`, { headers: { 'x-test-features': '' } });
    expect(gated.status).toBe(403);
    expect(((await gated.json()) as ErrorEnvelope).error.message).toContain('mcp');
  });

  test('a rejected handler reaches the error handler', async () => {
    const missing = await fetch(`${running.url}/api/v1/things/1`, { headers: { 'x-test-features': 'mcp' } });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as ErrorEnvelope).error).toEqual({ code: 'not_found', message: 'thing not found' });
    const broken = await fetch(`${running.url}/api/v1/things/1`, { method: 'DELETE', headers: { 'X-Request-Id': 'req-broken' } });
    expect(broken.status).toBe(500);
    const text = await broken.text();
    expect(JSON.parse(text)).toEqual({ error: { code: 'internal_error', message: 'internal error (request req-broken)' } });
    expect(text).not.toContain('/var/lib');
    // Only the log sees the cause, under the same request id.
    const logged = logLines.map((line) => JSON.parse(line) as { request_id: string; error: { message: string } });
    expect(logged.find((line) => line.request_id === 'req-broken')?.error.message).toContain('/var/lib/voice/x.sqlite');
  });

  test('HEAD is answered by the GET route', async () => {
    const response = await fetch(`${running.url}/api/v1/things`, { method: 'HEAD' });
    expect(response.status).toBe(200);
  });

  test('an unknown path is 404 not_found, not 405', async () => {
    const response = await fetch(`${running.url}/api/v1/nothing-here`, { method: 'DELETE' });
    expect(response.status).toBe(404);
    expect(((await response.json()) as ErrorEnvelope).error.code).toBe('not_found');
  });
});
