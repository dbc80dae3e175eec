// Who may do what with tools: 401 without a valid credential, 403 without the scope, 404 for
// another workspace's tool (never a hint that it exists).
import { expectError } from './support/api-client.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { apiTool } from './support/tools.js';

let platform: TestPlatform;
let owner: { id: string; key: string };
let stranger: { id: string; key: string };
let toolId: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  owner = await platform.workspace();
  stranger = await platform.workspace();
  toolId = (await platform.api.post('/tools', owner.key, apiTool('owned'))).body.data.id;
});
afterAll(() => platform.close());

const everyToolRoute = (id: string): [string, string, unknown][] => [
  ['GET', '/tools', undefined],
  ['POST', '/tools', apiTool()],
  ['GET', `/tools/${id}`, undefined],
  ['PATCH', `/tools/${id}`, { description: 'x', expected_revision: 1 }],
  ['DELETE', `/tools/${id}`, undefined],
  ['POST', `/tools/${id}/test`, {}],
];

describe('401 unauthorized', () => {
  test.each([
    ['no Authorization header', {}],
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['Bearer without a credential', { authorization: 'Bearer ' }],
    ['an unknown key', { authorization: 'Bearer svc_0000000000000000000000000000000000000000' }],
    ['a credential without the svc_ prefix', { authorization: 'Bearer sk_live_abcdef' }],
    ['an unknown access token', { authorization: 'Bearer svc_at_0000000000000000000000000000000000' }],
  ])('%s is 401 on every tool route, with a WWW-Authenticate challenge', async (_case, headers) => {
    for (const [method, path, body] of everyToolRoute(toolId)) {
      const response = await platform.api.request(method, path, { headers, body });
      expectError(response, 401, 'unauthorized');
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer .*resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"/);
    }
  });

  test('a malformed body without a credential is still 401: nothing is parsed before authentication', async () => {
    const response = await platform.api.request('POST', '/tools', { rawBody: '{broken', headers: { 'content-type': 'application/json' } });
    expectError(response, 401, 'unauthorized');
  });
});

describe('403 forbidden by scope', () => {
  test('assistants:read may read but not write', async () => {
    const reader = await platform.key(owner.id, ['assistants:read']);
    expect((await platform.api.get('/tools', reader)).status).toBe(200);
    expect((await platform.api.get(`/tools/${toolId}`, reader)).status).toBe(200);
    for (const [method, path, body] of everyToolRoute(toolId).filter(([m]) => m !== 'GET')) {
      const response = await platform.api.request(method, path, { key: reader, body });
      expectError(response, 403, 'forbidden');
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="assistants:write"');
    }
    expect((await platform.api.get(`/tools/${toolId}`, reader)).body.data.revision).toBe(1);
  });

  test('assistants:write implies assistants:read', async () => {
    const writer = await platform.key(owner.id, ['assistants:write']);
    expect((await platform.api.get('/tools', writer)).status).toBe(200);
    expect((await platform.api.get(`/tools/${toolId}`, writer)).status).toBe(200);
    expect((await platform.api.post('/tools', writer, apiTool())).status).toBe(201);
  });

  test('other scopes give no access to tools', async () => {
    const unrelated = await platform.key(owner.id, ['billing:read', 'calls:write', 'settings:write']);
    for (const [method, path, body] of everyToolRoute(toolId)) {
      expectError(await platform.api.request(method, path, { key: unrelated, body }), 403, 'forbidden');
    }
  });

  test('the scope is checked before the body: a reader sending a malformed body gets 403', async () => {
    const reader = await platform.key(owner.id, ['assistants:read']);
    const response = await platform.api.request('POST', '/tools', { key: reader, rawBody: '{broken', headers: { 'content-type': 'application/json' } });
    expectError(response, 403, 'forbidden');
  });
});

describe('another workspace', () => {
  test("its tool is 404 on every route, and changes nothing", async () => {
    for (const [method, path, body] of everyToolRoute(toolId).filter(([, p]) => p !== '/tools')) {
      const response = await platform.api.request(method, path, { key: stranger.key, body });
      expectError(response, 404, 'not_found');
      expect(response.text).not.toContain('owned');
    }
    const stillThere = await platform.api.get(`/tools/${toolId}`, owner.key);
    expect(stillThere.body.data).toMatchObject({ name: 'owned', revision: 1, description: 'Looks up an order' });
  });

  test('lists never show another workspace\'s tools', async () => {
    const list = await platform.api.get('/tools', stranger.key);
    expect(list.body.data.map((t: { id: string }) => t.id)).not.toContain(toolId);
    expect(list.body.meta.pagination.total).toBe(0);
  });

  test('names are unique per workspace only', async () => {
    expect((await platform.api.post('/tools', stranger.key, apiTool('owned'))).status).toBe(201);
    expectError(await platform.api.post('/tools', owner.key, apiTool('owned')), 409, 'conflict');
  });
});

describe('routing', () => {
  test('an unknown route under /api/v1 is 404 in the envelope, with or without a credential', async () => {
    expectError(await platform.api.get('/nothing-here', owner.key), 404, 'not_found');
    expectError(await platform.api.get('/nothing-here'), 404, 'not_found');
    expectError(await platform.api.get('/tools/a/b/c', owner.key), 404, 'not_found');
  });

  test('a known path with another method is 405 invalid_request with Allow', async () => {
    const put = await platform.api.request('PUT', `/tools/${toolId}`, { key: owner.key, body: {} });
    expectError(put, 405, 'invalid_request');
    expect(put.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE');
    const deleteAll = await platform.api.request('DELETE', '/tools', { key: owner.key });
    expectError(deleteAll, 405, 'invalid_request');
    expect(deleteAll.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  test('every authenticated response carries the rate-limit headers and a request id', async () => {
    const response = await platform.api.get('/tools', owner.key, { headers: { 'x-request-id': 'client-trace-42' } });
    expect(response.headers.get('x-request-id')).toBe('client-trace-42');
    expect(Number(response.headers.get('ratelimit-limit'))).toBeGreaterThan(0);
    expect(Number(response.headers.get('ratelimit-remaining'))).toBeLessThan(Number(response.headers.get('ratelimit-limit')));
    expect(Number(response.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    const notFound = await platform.api.get('/tools/6f1c1d7e-9a5b-4c1e-8f00-123456789abc', owner.key);
    expect(notFound.headers.get('ratelimit-limit')).not.toBeNull();
  });
});
