// Malformed requests through the gateway (issue 12 items 2 and 3): a path parameter that is not
// valid percent-encoding names nothing (404), a form with too many fields is 413, a body whose
// Content-Encoding does not match its bytes is 400 and an unsupported one 415; each in the format
// of the endpoint (the envelope, the OAuth error, the invitation page), none a 500 or a logged stack.
import { gzipSync } from 'node:zlib';
import { expectError, type ApiResponse } from './support/api-client.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { apiTool } from './support/tools.js';

let platform: TestPlatform;
let key: string;

beforeAll(async () => {
  platform = await startTestPlatform({ LOG_LEVEL: 'info' });
  key = (await platform.workspace({ plan: 'pro' })).key;
});
afterAll(() => platform.close());

const malformed = ['%FF%FE', '%E0%A4%A', 'abc%', '%', '%C0%AF'];

async function send(method: string, path: string, init: { headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<ApiResponse> {
  const response = await fetch(`${platform.running.url}${path}`, { method, headers: init.headers, body: init.body });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

function expectOAuthError(response: ApiResponse, status: number): void {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
}

/** Log lines of requests that failed on our side (logged at error level), or that carry a stack. */
const failuresLogged = () => platform.logs().filter((line) => line.includes('"level":"error"') || line.includes('"stack"'));

const form = 'application/x-www-form-urlencoded';
const thousandAndOneFields = Array.from({ length: 1001 }, (_, i) => `field${i}=x`).join('&');

describe('a path parameter that is not valid percent-encoding is 404', () => {
  test.each(malformed)('REST ids: %s', async (id) => {
    for (const [method, path] of [
      ['GET', `/api/v1/tools/${id}`],
      ['PATCH', `/api/v1/tools/${id}`],
      ['DELETE', `/api/v1/tools/${id}`],
      ['DELETE', `/api/v1/api-keys/${id}`],
      ['GET', `/api/v1/phone-numbers/${id}`],
    ] as const) {
      const response = await send(method, path, { headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: method === 'PATCH' ? '{}' : undefined });
      expectError(response, 404, 'not_found');
    }
  });

  test.each(malformed)('the carrier webhook: %s', async (connection) => {
    expectError(await send('POST', `/webhooks/carriers/${connection}`, { headers: { 'content-type': form }, body: 'MessageSid=SM1' }), 404, 'not_found');
  });

  test.each(malformed)('the invitation pages answer their own not-found page: %s', async (token) => {
    for (const method of ['GET', 'POST']) {
      const response = await send(method, `/invitations/${token}`, { headers: { 'content-type': form }, body: method === 'POST' ? 'password=correct-horse-battery' : undefined });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.text).toContain('This invitation is not valid');
    }
  });
});

describe('forms with more than 1,000 fields are 413', () => {
  test.each(['/oauth/authorize', '/oauth/token', '/oauth/revoke'])('%s answers in the OAuth format', async (path) => {
    expectOAuthError(await send('POST', path, { headers: { 'content-type': form }, body: thousandAndOneFields }), 413);
  });

  test('the invitation page answers with a page', async () => {
    const response = await send('POST', `/invitations/${'a'.repeat(40)}`, { headers: { 'content-type': form }, body: thousandAndOneFields });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });

  test('the carrier webhook answers with the envelope', async () => {
    expectError(await send('POST', '/webhooks/carriers/conn_1', { headers: { 'content-type': form }, body: thousandAndOneFields }), 413, 'invalid_request');
  });
});

describe('Content-Encoding', () => {
  const notGzip = { 'content-encoding': 'gzip' };
  const unsupported = { 'content-encoding': 'compress' };

  test.each(['/oauth/authorize', '/oauth/token', '/oauth/revoke'])('%s: bytes that do not match are 400, an unsupported coding 415 (OAuth format)', async (path) => {
    for (const coding of ['gzip', 'deflate', 'br']) {
      expectOAuthError(await send('POST', path, { headers: { 'content-type': form, 'content-encoding': coding }, body: 'grant_type=authorization_code' }), 400);
    }
    expectOAuthError(await send('POST', path, { headers: { 'content-type': form, ...unsupported }, body: 'grant_type=authorization_code' }), 415);
  });

  test('REST: bytes that do not match are 400, an unsupported coding 415, and nothing is created', async () => {
    const before = (await platform.api.get('/tools', key)).body.meta.pagination.total;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const body = JSON.stringify(apiTool());
    expectError(await send('POST', '/api/v1/tools', { headers: { ...headers, ...notGzip }, body }), 400, 'invalid_request');
    expectError(await send('POST', '/api/v1/tools', { headers: { ...headers, 'content-encoding': 'br' }, body }), 400, 'invalid_request');
    expectError(await send('POST', '/api/v1/tools', { headers: { ...headers, ...unsupported }, body }), 415, 'invalid_request');
    // A truncated gzip stream is as wrong as none.
    expectError(await send('POST', '/api/v1/tools', { headers: { ...headers, ...notGzip }, body: gzipSync(body).subarray(0, 20) }), 400, 'invalid_request');
    expect((await platform.api.get('/tools', key)).body.meta.pagination.total).toBe(before);
  });

  test('REST: a body that is what its Content-Encoding says is read', async () => {
    const body = gzipSync(JSON.stringify(apiTool()));
    const response = await send('POST', '/api/v1/tools', { headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...notGzip }, body });
    expect(response.status).toBe(201);
  });

  test('/mcp, the invitation page and the carrier webhook', async () => {
    expectError(await send('POST', '/mcp', { headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...notGzip }, body: '{}' }), 400, 'invalid_request');
    expectError(await send('POST', '/webhooks/carriers/conn_1', { headers: { 'content-type': form, ...notGzip }, body: 'a=b' }), 400, 'invalid_request');
    expectError(await send('POST', '/webhooks/carriers/conn_1', { headers: { 'content-type': form, ...unsupported }, body: 'a=b' }), 415, 'invalid_request');
    const page = await send('POST', `/invitations/${'a'.repeat(40)}`, { headers: { 'content-type': form, ...notGzip }, body: 'password=x' });
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });
});

describe('X-Request-Id', () => {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  test('a sane id (1 to 128 of A-Za-z0-9._:-) comes back as sent, on answers and errors alike', async () => {
    for (const id of ['a', 'req-1.2_3:x', 'x'.repeat(128)]) {
      expect((await send('GET', '/api/v1/me', { headers: { authorization: `Bearer ${key}`, 'x-request-id': id } })).headers.get('x-request-id')).toBe(id);
      expect((await send('GET', '/api/v1/tools/unknown', { headers: { authorization: `Bearer ${key}`, 'x-request-id': id } })).headers.get('x-request-id')).toBe(id);
    }
  });

  test('any other is replaced by a new one', async () => {
    for (const id of ['x'.repeat(129), 'has space', 'semi;colon', 'per%cent', '<script>']) {
      const answer = await send('GET', '/api/v1/me', { headers: { authorization: `Bearer ${key}`, 'x-request-id': id } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-request-id')).toMatch(uuid);
    }
  });
});

test('none of these was logged as a failure or with a stack trace', () => {
  expect(platform.logs().some((line) => line.includes('"msg":"request"'))).toBe(true);
  expect(failuresLogged()).toEqual([]);
});
