// Who may do what with assistants: 401 without a valid credential, 403 without the scope, 404 for
// another workspace's assistant, its versions and its restore (never a hint that it exists).
import { expectError } from './support/api-client.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
let owner: { id: string; key: string };
let stranger: { id: string; key: string };
let assistantId: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  owner = await platform.workspace();
  stranger = await platform.workspace();
  assistantId = (await platform.api.post('/assistants', owner.key, { name: 'Owned' })).body.data.id;
});
afterAll(() => platform.close());

const everyRoute = (id: string): [string, string, unknown][] => [
  ['GET', '/assistants', undefined],
  ['POST', '/assistants', { name: 'x' }],
  ['GET', `/assistants/${id}`, undefined],
  ['PATCH', `/assistants/${id}`, { name: 'x', expected_revision: 1 }],
  ['DELETE', `/assistants/${id}`, undefined],
  ['GET', `/assistants/${id}/versions`, undefined],
  ['GET', `/assistants/${id}/versions/1`, undefined],
  ['POST', `/assistants/${id}/versions/1/restore`, {}],
  ['GET', '/catalog/models', undefined],
  ['GET', '/voices', undefined],
];

test('no or an unknown credential is 401 on every route', async () => {
  for (const [method, path, body] of everyRoute(assistantId)) {
    expectError(await platform.api.request(method, path, { body }), 401, 'unauthorized');
    expectError(await platform.api.request(method, path, { body, key: 'svc_0000000000000000000000000000000000000000' }), 401, 'unauthorized');
  }
});

test('assistants:read reads but does not write; a key without assistants scopes does neither', async () => {
  const reader = await platform.key(owner.id, ['assistants:read']);
  for (const [method, path, body] of everyRoute(assistantId).filter(([, path]) => path !== '/voices')) {
    const response = await platform.api.request(method, path, { key: reader, body });
    if (method === 'GET') expect(response.status).toBe(200);
    else {
      expectError(response, 403, 'forbidden');
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="assistants:write"');
    }
  }
  const other = await platform.key(owner.id, ['billing:read']);
  for (const [method, path, body] of everyRoute(assistantId)) expectError(await platform.api.request(method, path, { key: other, body }), 403, 'forbidden');
  expect((await platform.api.get(`/assistants/${assistantId}`, owner.key)).body.data.revision).toBe(1);
});

test('another workspace’s assistant is 404 everywhere and stays untouched', async () => {
  for (const [method, path, body] of everyRoute(assistantId).filter(([, path]) => path.includes(assistantId))) {
    expectError(await platform.api.request(method, path, { key: stranger.key, body }), 404, 'not_found');
  }
  expect((await platform.api.get('/assistants', stranger.key)).body.meta.pagination.total).toBe(0);
  const own = await platform.api.get(`/assistants/${assistantId}`, owner.key);
  expect(own.body.data).toMatchObject({ name: 'Owned', revision: 1 });
});

test('a member’s token may write assistants (assistants:write is a member scope)', async () => {
  const writer = await platform.key(owner.id, ['assistants:write']);
  const created = await platform.api.post('/assistants', writer, { name: 'Written' });
  expect(created.status).toBe(201);
  expect((await platform.api.get(`/assistants/${created.body.data.id}`, writer)).status).toBe(200);
});
