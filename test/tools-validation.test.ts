// Tools API validation through the gateway: malformed bodies, field rules of SPEC.md 2.3 and
// per-type config rules of 2.4; every refusal is a 400 naming the field and changes nothing.
import { expectError, fieldsOf } from './support/api-client.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { apiTool, mcpTool } from './support/tools.js';

let platform: TestPlatform;
let key: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  key = (await platform.workspace()).key;
});
afterAll(() => platform.close());

const toolCount = async () => (await platform.api.get('/tools', key)).body.meta.pagination.total as number;

describe('malformed bodies', () => {
  test.each([
    ['invalid JSON', '{"name": "x", ', 'application/json', 400],
    ['a JSON array', '[{"name":"x","type":"api"}]', 'application/json', 400],
    ['a JSON string', '"tool"', 'application/json', 400],
    ['JSON null', 'null', 'application/json', 400],
    ['form encoding', 'name=x&type=api', 'application/x-www-form-urlencoded', 400],
    ['text/plain JSON', '{"name":"x","type":"api"}', 'text/plain', 400],
  ])('%s is %d invalid_request and creates nothing', async (_case, rawBody, contentType, status) => {
    const before = await toolCount();
    const response = await platform.api.request('POST', '/tools', { key, rawBody, headers: { 'content-type': contentType } });
    expectError(response, status, 'invalid_request');
    expect(await toolCount()).toBe(before);
  });

  test('a body over 1 MiB is 413 with code invalid_request', async () => {
    const response = await platform.api.post('/tools', key, { ...apiTool(), description: 'x'.repeat(1024 * 1024 + 10) });
    expectError(response, 413, 'invalid_request');
  });

  test('an empty POST body names the required fields', async () => {
    const response = await platform.api.request('POST', '/tools', { key });
    expectError(response, 400, 'invalid_request');
    expect(fieldsOf(response).sort()).toEqual(['name', 'type']);
  });

  test('a malformed PATCH body changes nothing', async () => {
    const tool = (await platform.api.post('/tools', key, apiTool())).body.data;
    const response = await platform.api.request('PATCH', `/tools/${tool.id}`, { key, rawBody: '{"expected_revision": 1,', headers: { 'content-type': 'application/json' } });
    expectError(response, 400, 'invalid_request');
    expect((await platform.api.get(`/tools/${tool.id}`, key)).body.data).toEqual(tool);
  });
});

describe('tool input fields (SPEC.md 2.3)', () => {
  test.each([
    [{ name: '1starts_with_digit' }, 'name'],
    [{ name: '_underscore_first' }, 'name'],
    [{ name: 'has space' }, 'name'],
    [{ name: 'ünïcode' }, 'name'],
    [{ name: 'a'.repeat(65) }, 'name'],
    [{ name: '' }, 'name'],
    [{ name: 42 }, 'name'],
    [{ description: 'd'.repeat(1001) }, 'description'],
    [{ description: 7 }, 'description'],
    [{ type: 'webhook' }, 'type'],
    [{ type: null }, 'type'],
    [{ is_active: 'yes' }, 'is_active'],
    [{ config: [] }, 'config'],
    [{ config: 'https://x' }, 'config'],
    [{ revision: 3 }, 'revision'],
    [{ id: '6f1c1d7e-9a5b-4c1e-8f00-123456789abc' }, 'id'],
    [{ expected_revision: 1 }, 'expected_revision'],
  ])('create with %j is 400 naming %s', async (override, field) => {
    const response = await platform.api.post('/tools', key, { ...apiTool(), ...override });
    expectError(response, 400, 'invalid_request');
    expect(fieldsOf(response)).toContain(field);
    expect(response.body.error.message).toContain(field);
  });

  test('the limits themselves are accepted: 64-character name, 1000-character description, - and _', async () => {
    const response = await platform.api.post('/tools', key, { ...apiTool('a'.repeat(64)), description: 'd'.repeat(1000) });
    expect(response.status).toBe(201);
    expect((await platform.api.post('/tools', key, apiTool('Get-order_v2'))).status).toBe(201);
  });

  test.each([
    [{}, 'expected_revision'],
    [{ expected_revision: 0 }, 'expected_revision'],
    [{ expected_revision: -1 }, 'expected_revision'],
    [{ expected_revision: 1.5 }, 'expected_revision'],
    [{ expected_revision: '1' }, 'expected_revision'],
    [{ expected_revision: 1, name: 'bad name' }, 'name'],
    [{ expected_revision: 1, unknown_field: true }, 'unknown_field'],
    [{ expected_revision: 1, is_active: 0 }, 'is_active'],
  ])('PATCH with %j is 400 naming %s', async (body, field) => {
    const tool = (await platform.api.post('/tools', key, apiTool())).body.data;
    const response = await platform.api.patch(`/tools/${tool.id}`, key, body);
    expectError(response, 400, 'invalid_request');
    expect(fieldsOf(response)).toContain(field);
    expect((await platform.api.get(`/tools/${tool.id}`, key)).body.data.revision).toBe(1);
  });
});

describe('deeply nested JSON', () => {
  const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { inner: nested(depth - 1) });

  test.each([40, 150, 5000])('a config nested %d levels deep is 400 naming the field, never a 500', async (depth) => {
    // Written as text: the test's own JSON.stringify would overflow at this depth.
    const payload = '{"inner":'.repeat(depth) + '"leaf"' + '}'.repeat(depth);
    const rawBody = `{"name":"deep_${depth}","type":"api","config":{"url":"https://a.example","static_values":{"payload":${payload}}}}`;
    const response = await platform.api.request('POST', '/tools', { key, rawBody, headers: { 'content-type': 'application/json' } });
    expectError(response, 400, 'invalid_request');
    expect(fieldsOf(response)[0]).toMatch(/^config/);
  });

  test('nesting up to the limit is accepted', async () => {
    const response = await platform.api.post('/tools', key, { name: 'deep_ok', type: 'api', config: { url: 'https://a.example', static_values: { payload: nested(28) } } });
    expect(response.status).toBe(201);
  });

  test('test arguments nested too deeply are 400', async () => {
    const tool = (await platform.api.post('/tools', key, { name: 'deep_args', type: 'api', config: { url: 'https://a.example', parameters: [{ name: 'q', type: 'object' }] } })).body.data;
    const response = await platform.api.post(`/tools/${tool.id}/test`, key, { arguments: { q: nested(150) } });
    expectError(response, 400, 'invalid_request');
    expect(fieldsOf(response)[0]).toMatch(/^arguments/);
  });
});

describe('config by type (SPEC.md 2.4, API.md 7)', () => {
  const api = (config: Record<string, unknown>) => ({ name: `t${Math.random().toString(36).slice(2, 9)}`, type: 'api', config });
  const mcp = (config: Record<string, unknown>) => ({ name: `t${Math.random().toString(36).slice(2, 9)}`, type: 'mcp', config });
  const builtin = (config: Record<string, unknown>) => ({ name: `t${Math.random().toString(36).slice(2, 9)}`, type: 'builtin', config });

  test.each([
    ['api without url', api({ method: 'GET' }), 'config.url'],
    ['api with a non-http url', api({ url: 'ftp://files.example.com/x' }), 'config.url'],
    ['api with a relative url', api({ url: '/hook' }), 'config.url'],
    ['api with credentials in the url', api({ url: 'https://user:pw@example.com/' }), 'config.url'],
    ['api with an unknown method', api({ url: 'https://a.example', method: 'TRACE' }), 'config.method'],
    ['api with timeout_ms 0', api({ url: 'https://a.example', timeout_ms: 0 }), 'config.timeout_ms'],
    ['api with timeout_ms 120001', api({ url: 'https://a.example', timeout_ms: 120001 }), 'config.timeout_ms'],
    ['api with a fractional timeout_ms', api({ url: 'https://a.example', timeout_ms: 1.5 }), 'config.timeout_ms'],
    ['api with a bad header name', api({ url: 'https://a.example', headers: { 'Bad Header': 'x' } }), 'config.headers.Bad Header'],
    ['api with a non-string header value', api({ url: 'https://a.example', headers: { 'X-A': 5 } }), 'config.headers.X-A'],
    ['api with an unknown parameter location', api({ url: 'https://a.example', parameters: [{ name: 'a', type: 'string', location: 'cookie' }] }), 'config.parameters.0.location'],
    ['api with an unknown parameter source', api({ url: 'https://a.example', parameters: [{ name: 'a', type: 'string', source: 'guess' }] }), 'config.parameters.0.source'],
    ['api with a path parameter missing from the url', api({ url: 'https://a.example/x', parameters: [{ name: 'id', type: 'string', location: 'path' }] }), 'config.parameters.0.location'],
    ['api with a duplicate parameter', api({ url: 'https://a.example', parameters: [{ name: 'a', type: 'string' }, { name: 'a', type: 'number' }] }), 'config.parameters.1.name'],
    ['api with speak_after not boolean', api({ url: 'https://a.example', speak_after: 'no' }), 'config.speak_after'],
    ['api with an unknown key', api({ url: 'https://a.example', retries: 3 }), 'config.retries'],
    ['mcp without url', mcp({}), 'config.url'],
    ['mcp with an unknown on_duplicate', mcp({ url: 'https://m.example', tool_options: { a: { on_duplicate: 'merge' } } }), 'config.tool_options.a.on_duplicate'],
    ['mcp replace without cancellable', mcp({ url: 'https://m.example', tool_options: { a: { on_duplicate: 'replace' } } }), 'config.tool_options.a.on_duplicate'],
    ['mcp bearer without a value', mcp({ url: 'https://m.example', auth_type: 'bearer' }), 'config.auth_value_encrypted'],
    ['mcp header auth without a header name', mcp({ url: 'https://m.example', auth_type: 'header', auth_value_encrypted: 'v' }), 'config.auth_header_name'],
    ['mcp with an unknown auth_type', mcp({ url: 'https://m.example', auth_type: 'oauth' }), 'config.auth_type'],
    ['mcp with allowed_tools not an array', mcp({ url: 'https://m.example', allowed_tools: 'search' }), 'config.allowed_tools'],
    ['builtin without type', builtin({ description: 'x' }), 'config.type'],
    ['builtin of an unknown type', builtin({ type: 'teleport' }), 'config.type'],
    ['builtin set_variable without allowed_keys', builtin({ type: 'set_variable' }), 'config.allowed_keys'],
    ['builtin collect_payment_card with a bad connection id', builtin({ type: 'collect_payment_card', payment_connection_id: 'pay-1' }), 'config.payment_connection_id'],
    ['builtin call_transfer to a bad destination', builtin({ type: 'call_transfer', destination: 'call me' }), 'config.destination'],
    ['builtin end_call with an unknown key', builtin({ type: 'end_call', mood: 'happy' }), 'config.mood'],
    ['api with an empty config', api({}), 'config.url'],
    ['api with a header value beyond Latin-1', api({ url: 'https://a.example', headers: { 'X-Api-Key': 'k\u20ac' } }), 'config.headers.X-Api-Key'],
    ['api with CR/LF in a header value', api({ url: 'https://a.example', headers: { 'X-A': 'v\r\nX-Injected: 1' } }), 'config.headers.X-A'],
    ['mcp with CR/LF in the auth value', mcp({ url: 'https://m.example', auth_type: 'bearer', auth_value_encrypted: 'a\nb' }), 'config.auth_value_encrypted'],
    ['mcp with a placeholder in the url', mcp({ url: 'https://m.example/{tenant}/mcp' }), 'config.url'],
  ])('%s is 400 naming %s', async (_case, body, field) => {
    const response = await platform.api.post('/tools', key, body);
    expectError(response, 400, 'invalid_request');
    expect(fieldsOf(response)).toContain(field);
  });

  test.each([
    ['mcp replace with cancellable', mcpTool()],
    ['mcp header auth', mcp({ url: 'https://m.example', auth_type: 'header', auth_header_name: 'X-Token', auth_value_encrypted: 'v' })],
    ['builtin set_variable', builtin({ type: 'set_variable', allowed_keys: ['customer_name'] })],
    ['builtin collect_payment_card', builtin({ type: 'collect_payment_card', payment_connection_id: '6f1c1d7e-9a5b-4c1e-8f00-123456789abc', currency: 'EUR' })],
    ['builtin warm transfer to SIP', builtin({ type: 'warm_call_transfer', destination: 'sip:desk@pbx.example.com' })],
    ['builtin end_call', builtin({ type: 'end_call', description: 'hang up politely' })],
    ['api with every key', apiTool()],
    ['api timeout_ms at both bounds', api({ url: 'https://a.example', timeout_ms: 120000 })],
  ])('%s is accepted', async (_case, body) => {
    expect((await platform.api.post('/tools', key, body)).status).toBe(201);
  });

  test('a PATCHed config is validated against the stored type', async () => {
    const tool = (await platform.api.post('/tools', key, mcpTool())).body.data;
    const response = await platform.api.patch(`/tools/${tool.id}`, key, { config: { url: 'https://a.example', method: 'GET' }, expected_revision: 1 });
    expectError(response, 400, 'invalid_request');
    expect(fieldsOf(response)).toContain('config.method');
  });
});

describe('query parameters', () => {
  test('an operation without query parameters refuses any, like unknown fields anywhere (400 naming them), and changes nothing', async () => {
    const created = (await platform.api.post('/tools', key, { name: 'query_rules', type: 'api', config: { url: 'https://a.example' } })).body.data;
    const read = await platform.api.get(`/tools/${created.id}?verbose=1`, key);
    expect(read.status).toBe(400);
    expect(read.body.error).toMatchObject({ code: 'invalid_request', details: [{ field: 'verbose', issue: 'is not a known field' }] });
    const deleted = await platform.api.delete(`/tools/${created.id}?force=true`, key);
    expect(deleted.status).toBe(400);
    expect((await platform.api.get(`/tools/${created.id}`, key)).status).toBe(200);
    const list = await platform.api.get('/tools?verbose=1', key);
    expect(list.status).toBe(400);
  });
});
