// Service-account keys and authentication through the gateway: shown once, hashed, the subset
// rule, revocation on the very next request, GET /me.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectError, fieldsOf } from './support/api-client.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
let admin: { id: string; key: string };
const issued: string[] = [];

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.workspace({ plan: 'pro' });
});
afterAll(async () => {
  // A key appears in exactly one response: the one that created it.
  for (const key of issued) expect(platform.api.transcript.filter((t) => t.includes(key))).toHaveLength(1);
  await platform.close();
});

const createKey = async (key: string, body: unknown) => {
  const response = await platform.api.post('/api-keys', key, body);
  if (response.status === 201) issued.push(response.body.data.key);
  return response;
};

describe('POST /api-keys', () => {
  test('returns the full key once, with hint, scopes and times', async () => {
    const response = await createKey(admin.key, { name: 'billing export', scopes: ['billing:read', 'assistants:write'] });
    expect(response.status).toBe(201);
    const data = response.body.data;
    expect(data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'billing export',
      scopes: ['billing:read', 'assistants:write'],
      key_hint: `svc_…${data.key.slice(-4)}`,
      created_at: expect.any(String),
      last_used_at: null,
      key: expect.stringMatching(/^svc_[0-9A-Za-z]{43}$/),
    });
  });

  test('the new key works at once, within its scopes only', async () => {
    const key = (await createKey(admin.key, { name: 'reader', scopes: ['assistants:read'] })).body.data.key;
    expect((await platform.api.get('/tools', key)).status).toBe(200);
    expectError(await platform.api.post('/tools', key, { name: 'x', type: 'api', config: { url: 'https://a.example' } }), 403, 'forbidden');
    expectError(await platform.api.get('/api-keys', key), 403, 'forbidden');
  });

  test('a key can only create keys within its own scopes (write covers read)', async () => {
    const limited = (await createKey(admin.key, { name: 'limited', scopes: ['settings:write', 'assistants:write'] })).body.data.key;
    expect((await createKey(limited, { name: 'sub', scopes: ['assistants:read'] })).status).toBe(201);
    expect((await createKey(limited, { name: 'sub', scopes: ['assistants:write', 'settings:read'] })).status).toBe(201);
    const beyond = await createKey(limited, { name: 'sub', scopes: ['assistants:read', 'billing:read'] });
    expectError(beyond, 403, 'forbidden');
    expect(beyond.body.error.message).toContain('billing:read');
  });

  test('settings:read may list keys but not create or revoke them', async () => {
    const reader = (await createKey(admin.key, { name: 'auditor', scopes: ['settings:read'] })).body.data.key;
    expect((await platform.api.get('/api-keys', reader)).status).toBe(200);
    expectError(await createKey(reader, { name: 'x', scopes: ['settings:read'] }), 403, 'forbidden');
  });

  test.each([
    [{ name: 'x', scopes: [] }, 'scopes'],
    [{ name: 'x' }, 'scopes'],
    [{ name: 'x', scopes: ['assistants:admin'] }, 'scopes'],
    [{ name: 'x', scopes: ['*'] }, 'scopes'],
    [{ name: 'x', scopes: 'assistants:read' }, 'scopes'],
    [{ scopes: ['assistants:read'] }, 'name'],
    [{ name: '', scopes: ['assistants:read'] }, 'name'],
    [{ name: 'n'.repeat(101), scopes: ['assistants:read'] }, 'name'],
    [{ name: 'x', scopes: ['assistants:read'], expires: 'never' }, 'expires'],
  ])('%j is 400 naming %s', async (body, field) => {
    const response = await createKey(admin.key, body);
    expectError(response, 400, 'invalid_request');
    expect(fieldsOf(response)).toContain(field);
  });
});

describe('GET /api-keys', () => {
  test('lists active keys of the workspace with hints, never the keys, newest first', async () => {
    const workspace = await platform.workspace();
    const made = [];
    for (const name of ['one', 'two', 'three']) made.push((await createKey(workspace.key, { name, scopes: ['calls:read'] })).body.data);
    const response = await platform.api.get('/api-keys?limit=2', workspace.key);
    expect(response.status).toBe(200);
    expect(response.body.meta.pagination).toEqual({ limit: 2, offset: 0, total: 4 });
    expect(response.body.data.map((k: { name: string }) => k.name)).toEqual(['three', 'two']);
    for (const key of response.body.data) {
      expect(Object.keys(key).sort()).toEqual(['created_at', 'id', 'key_hint', 'last_used_at', 'name', 'scopes']);
    }
    for (const { key } of made) expect(response.text).not.toContain(key);
  });

  test('last_used_at is set once a key is used', async () => {
    const created = (await createKey(admin.key, { name: 'used', scopes: ['assistants:read'] })).body.data;
    await platform.api.get('/tools', created.key);
    const listed = (await platform.api.get('/api-keys?limit=200', admin.key)).body.data.find((k: { id: string }) => k.id === created.id);
    expect(Date.parse(listed.last_used_at)).toBeGreaterThanOrEqual(Date.parse(created.created_at));
  });

  test('invalid paging is 400', async () => {
    expectError(await platform.api.get('/api-keys?limit=500', admin.key), 400, 'invalid_request');
  });
});

describe('DELETE /api-keys/{id}', () => {
  test('revocation holds on the very next request, even for a key just used (cached)', async () => {
    const created = (await createKey(admin.key, { name: 'short-lived', scopes: ['assistants:read'] })).body.data;
    for (let i = 0; i < 3; i += 1) expect((await platform.api.get('/tools', created.key)).status).toBe(200);
    const revoked = await platform.api.delete(`/api-keys/${created.id}`, admin.key);
    expect(revoked.body).toEqual({ data: { id: created.id, deleted: true } });
    expectError(await platform.api.get('/tools', created.key), 401, 'unauthorized');
    expectError(await platform.api.get('/me', created.key), 401, 'unauthorized');
    const listed = (await platform.api.get('/api-keys?limit=200', admin.key)).body.data;
    expect(listed.map((k: { id: string }) => k.id)).not.toContain(created.id);
  });

  test('revocation racing with requests in flight still holds afterwards', async () => {
    const created = (await createKey(admin.key, { name: 'racing', scopes: ['assistants:read'] })).body.data;
    const traffic = Array.from({ length: 20 }, () => platform.api.get('/tools', created.key));
    await platform.api.delete(`/api-keys/${created.id}`, admin.key);
    await Promise.all(traffic);
    expectError(await platform.api.get('/tools', created.key), 401, 'unauthorized');
  });

  test("another workspace's key is 404 and keeps working; twice is 404", async () => {
    const other = await platform.workspace();
    const theirs = (await createKey(other.key, { name: 'theirs', scopes: ['assistants:read'] })).body.data;
    expectError(await platform.api.delete(`/api-keys/${theirs.id}`, admin.key), 404, 'not_found');
    expect((await platform.api.get('/tools', theirs.key)).status).toBe(200);
    await platform.api.delete(`/api-keys/${theirs.id}`, other.key);
    expectError(await platform.api.delete(`/api-keys/${theirs.id}`, other.key), 404, 'not_found');
    expectError(await platform.api.delete('/api-keys/not-a-uuid', other.key), 404, 'not_found');
  });

  test('a key may revoke itself; its next request is 401', async () => {
    const self = (await createKey(admin.key, { name: 'self', scopes: ['settings:write'] })).body.data;
    expect((await platform.api.delete(`/api-keys/${self.id}`, self.key)).status).toBe(200);
    expectError(await platform.api.get('/api-keys', self.key), 401, 'unauthorized');
  });
});

describe('GET /me', () => {
  test('the root key: unrestricted, on the enterprise root platform', async () => {
    const response = await platform.api.get('/me', platform.rootKey);
    expect(response.body.data).toEqual({
      principal: { type: 'service_account', id: expect.any(String), name: 'root' },
      workspace: {
        id: platform.rootWorkspaceId,
        name: 'Root platform',
        plan: 'enterprise',
        features: ['mcp', 'automations', 'dashboards', 'simulations', 'white_label'],
        white_label: true,
        status: 'active',
        created_at: expect.any(String),
      },
      scopes: null,
    });
  });

  test('a scoped key: its own principal, not its creator, and its scopes; no scope needed', async () => {
    const created = (await createKey(admin.key, { name: 'bot', scopes: ['voices:read'] })).body.data;
    const me = (await platform.api.get('/me', created.key)).body.data;
    const adminMe = (await platform.api.get('/me', admin.key)).body.data;
    expect(me.principal.name).toBe('bot');
    expect(me.principal.id).not.toBe(adminMe.principal.id);
    expect(me.scopes).toEqual(['voices:read']);
    expect(me.workspace).toMatchObject({ id: admin.id, plan: 'pro', features: ['mcp', 'automations', 'dashboards', 'simulations'], white_label: false });
  });
});

test('keys are stored only as hashes', async () => {
  const stored = readdirSync(platform.dataDir)
    .filter((f) => f.startsWith('identity.sqlite'))
    .map((f) => readFileSync(join(platform.dataDir, f)).toString('latin1'))
    .join('');
  expect(stored.length).toBeGreaterThan(0);
  for (const key of [...issued, platform.rootKey]) expect(stored).not.toContain(key);
});
