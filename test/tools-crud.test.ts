// Tools API through the gateway: create, read, list, update, delete and the is_active states.
import { expectError } from './support/api-client.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { apiTool, builtinTool, mask, mcpTool } from './support/tools.js';

let platform: TestPlatform;
let key: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  key = (await platform.workspace()).key;
});
afterAll(() => platform.close());

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /tools', () => {
  test('creates a tool: 201, every field, revision 1, active by default, secrets masked', async () => {
    const input = apiTool('order_lookup');
    const response = await platform.api.post('/tools', key, input);
    expect(response.status).toBe(201);
    const tool = response.body.data;
    expect(Object.keys(response.body)).toEqual(['data']);
    expect(tool).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'order_lookup',
      description: 'Looks up an order',
      type: 'api',
      config: { ...input.config, headers: { 'X-Api-Key': mask }, parameters: input.config.parameters.map((p) => ({ required: false, source: 'model', ...p })) },
      is_active: true,
      revision: 1,
      created_at: expect.stringMatching(iso),
      updated_at: expect.stringMatching(iso),
    });
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  test('each type stores its config; defaults are applied and shown', async () => {
    const mcp = await platform.api.post('/tools', key, mcpTool());
    expect(mcp.status).toBe(201);
    expect(mcp.body.data.config).toEqual({ ...mcpTool().config, auth_value_encrypted: mask });
    const builtin = await platform.api.post('/tools', key, builtinTool());
    expect(builtin.status).toBe(201);
    expect(builtin.body.data.config).toEqual({ type: 'call_transfer', destination: '+14155550123', sip_headers: { 'X-Account': mask } });
    const minimal = await platform.api.post('/tools', key, { name: 'minimal', type: 'api', config: { url: 'https://a.example' } });
    expect(minimal.body.data).toMatchObject({ description: '', config: { url: 'https://a.example', method: 'POST', speak_after: true } });
  });

  test('a tool created inactive stays inactive', async () => {
    const response = await platform.api.post('/tools', key, { ...apiTool(), is_active: false });
    expect(response.body.data.is_active).toBe(false);
  });
});

describe('GET /tools/{id}', () => {
  test('returns the stored tool with secrets masked', async () => {
    const created = (await platform.api.post('/tools', key, mcpTool())).body.data;
    const response = await platform.api.get(`/tools/${created.id}`, key);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: created });
  });

  test('unknown and malformed ids are 404 not_found', async () => {
    expectError(await platform.api.get('/tools/6f1c1d7e-9a5b-4c1e-8f00-123456789abc', key), 404, 'not_found');
    expectError(await platform.api.get('/tools/not-a-uuid', key), 404, 'not_found');
    expectError(await platform.api.get("/tools/1' OR '1'='1", key), 404, 'not_found');
  });
});

describe('PATCH /tools/{id}', () => {
  test('is_active moves between the states of SPEC.md 3 at the expected revision', async () => {
    const tool = (await platform.api.post('/tools', key, apiTool())).body.data;
    const off = await platform.api.patch(`/tools/${tool.id}`, key, { is_active: false, expected_revision: 1 });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ is_active: false, revision: 2 });
    expect(Date.parse(off.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(tool.updated_at));
    const on = await platform.api.patch(`/tools/${tool.id}`, key, { is_active: true, expected_revision: 2 });
    expect(on.body.data).toMatchObject({ is_active: true, revision: 3 });
    expect((await platform.api.get(`/tools/${tool.id}`, key)).body.data).toEqual(on.body.data);
  });

  test('only the fields sent change', async () => {
    const tool = (await platform.api.post('/tools', key, apiTool())).body.data;
    const response = await platform.api.patch(`/tools/${tool.id}`, key, { description: 'new words', expected_revision: 1 });
    expect(response.body.data).toEqual({ ...tool, description: 'new words', revision: 2, updated_at: response.body.data.updated_at });
  });

  test('a config replaces the stored config as a whole', async () => {
    const tool = (await platform.api.post('/tools', key, apiTool())).body.data;
    const response = await platform.api.patch(`/tools/${tool.id}`, key, { config: { url: 'https://other.example/hook' }, expected_revision: 1 });
    expect(response.body.data.config).toEqual({ url: 'https://other.example/hook', method: 'POST', speak_after: true });
  });

  test('a stale expected_revision is 409 revision_conflict and changes nothing', async () => {
    const tool = (await platform.api.post('/tools', key, apiTool())).body.data;
    await platform.api.patch(`/tools/${tool.id}`, key, { description: 'first', expected_revision: 1 });
    expectError(await platform.api.patch(`/tools/${tool.id}`, key, { description: 'second', expected_revision: 1 }), 409, 'revision_conflict');
    expectError(await platform.api.patch(`/tools/${tool.id}`, key, { description: 'future', expected_revision: 9 }), 409, 'revision_conflict');
    expect((await platform.api.get(`/tools/${tool.id}`, key)).body.data).toMatchObject({ description: 'first', revision: 2 });
  });

  test('type is immutable: another type is 400, the same type is accepted', async () => {
    const tool = (await platform.api.post('/tools', key, apiTool())).body.data;
    const changed = await platform.api.patch(`/tools/${tool.id}`, key, { type: 'mcp', expected_revision: 1 });
    expectError(changed, 400, 'invalid_request');
    expect(changed.body.error.details).toEqual([{ field: 'type', issue: expect.stringContaining('immutable') }]);
    const same = await platform.api.patch(`/tools/${tool.id}`, key, { type: 'api', expected_revision: 1 });
    expect(same.status).toBe(200);
    expect(same.body.data.type).toBe('api');
  });

  test('renaming keeps names unique per workspace', async () => {
    const first = (await platform.api.post('/tools', key, apiTool('first_name'))).body.data;
    await platform.api.post('/tools', key, apiTool('second_name'));
    expectError(await platform.api.patch(`/tools/${first.id}`, key, { name: 'second_name', expected_revision: 1 }), 409, 'conflict');
    const renamed = await platform.api.patch(`/tools/${first.id}`, key, { name: 'third_name', expected_revision: 1 });
    expect(renamed.body.data.name).toBe('third_name');
  });

  test('PATCH of an unknown tool is 404', async () => {
    expectError(await platform.api.patch('/tools/6f1c1d7e-9a5b-4c1e-8f00-123456789abc', key, { expected_revision: 1 }), 404, 'not_found');
  });
});

describe('DELETE /tools/{id}', () => {
  test('deletes once: {id, deleted: true}, then 404; the name is free again', async () => {
    const tool = (await platform.api.post('/tools', key, apiTool('deletable'))).body.data;
    const response = await platform.api.delete(`/tools/${tool.id}`, key);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { id: tool.id, deleted: true } });
    expectError(await platform.api.get(`/tools/${tool.id}`, key), 404, 'not_found');
    expectError(await platform.api.delete(`/tools/${tool.id}`, key), 404, 'not_found');
    expect((await platform.api.post('/tools', key, apiTool('deletable'))).status).toBe(201);
  });
});

describe('GET /tools', () => {
  let listKey: string;
  const ids: string[] = [];

  beforeAll(async () => {
    listKey = (await platform.workspace()).key;
    const inputs = [apiTool(), mcpTool(), builtinTool(), { ...apiTool(), is_active: false }, mcpTool()];
    for (const input of inputs) ids.push((await platform.api.post('/tools', listKey, input)).body.data.id);
  });

  test('newest first, with meta.pagination', async () => {
    const response = await platform.api.get('/tools', listKey);
    expect(response.status).toBe(200);
    expect(response.body.data.map((t: { id: string }) => t.id)).toEqual([...ids].reverse());
    expect(response.body.meta).toEqual({ pagination: { limit: 50, offset: 0, total: 5 } });
  });

  test('limit and offset page through the total', async () => {
    const seen: string[] = [];
    for (let offset = 0; ; offset += 2) {
      const page = await platform.api.get(`/tools?limit=2&offset=${offset}`, listKey);
      expect(page.body.meta.pagination).toEqual({ limit: 2, offset, total: 5 });
      seen.push(...page.body.data.map((t: { id: string }) => t.id));
      if (offset + 2 >= page.body.meta.pagination.total) break;
    }
    expect(seen).toEqual([...ids].reverse());
    expect((await platform.api.get('/tools?offset=100', listKey)).body).toEqual({ data: [], meta: { pagination: { limit: 50, offset: 100, total: 5 } } });
  });

  test('filters by type and is_active', async () => {
    const mcp = await platform.api.get('/tools?type=mcp', listKey);
    expect(mcp.body.meta.pagination.total).toBe(2);
    expect(mcp.body.data.every((t: { type: string }) => t.type === 'mcp')).toBe(true);
    const inactive = await platform.api.get('/tools?is_active=false', listKey);
    expect(inactive.body.data.map((t: { id: string }) => t.id)).toEqual([ids[3]]);
    const activeApi = await platform.api.get('/tools?type=api&is_active=true', listKey);
    expect(activeApi.body.data.map((t: { id: string }) => t.id)).toEqual([ids[0]]);
  });

  test.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=1&limit=2', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=x', 'offset'],
    ['type=webhook', 'type'],
    ['is_active=maybe', 'is_active'],
    ['sort=name', 'sort'],
  ])('?%s is 400 naming %s', async (query, field) => {
    const response = await platform.api.get(`/tools?${query}`, listKey);
    expectError(response, 400, 'invalid_request');
    expect(response.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  test('limit=200 is the largest page', async () => {
    expect((await platform.api.get('/tools?limit=200', listKey)).body.meta.pagination.limit).toBe(200);
  });
});
