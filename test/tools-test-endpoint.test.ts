// POST /tools/{id}/test through the gateway: an api tool's request really sent (with the stored
// secrets, never shown back), an mcp tool's server tools listed, and the egress guard.
import { expectError, fieldsOf } from './support/api-client.js';
import { startHttpApi, startMcpServer, type Loopback } from './support/loopback.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { mask, secrets } from './support/tools.js';

describe('with private egress allowed (VOICE_EGRESS_ALLOW_PRIVATE=true)', () => {
  let platform: TestPlatform;
  let key: string;
  let orders: Loopback;
  let mcp: Loopback;

  beforeAll(async () => {
    platform = await startTestPlatform({ VOICE_EGRESS_ALLOW_PRIVATE: 'true' });
    key = (await platform.workspace()).key;
    orders = await startHttpApi();
    mcp = await startMcpServer(secrets.mcpToken);
  });
  afterAll(async () => {
    for (const secret of Object.values(secrets)) expect(platform.api.transcript.filter((t) => t.includes(secret))).toEqual([]);
    await Promise.all([platform.close(), orders.close(), mcp.close()]);
  });

  const orderTool = () => ({
    name: `order_${Math.random().toString(36).slice(2, 8)}`,
    type: 'api',
    config: {
      method: 'POST',
      url: `${orders.url}/orders/{order_id}`,
      headers: { 'X-Api-Key': secrets.apiHeader },
      parameters: [
        { name: 'order_id', type: 'string', required: true, location: 'path' },
        { name: 'verbose', type: 'boolean', location: 'query' },
        { name: 'X-Trace', type: 'string', location: 'header' },
        { name: 'amount', type: 'number', location: 'body' },
      ],
      static_values: { channel: 'voice' },
      response_mapping: { status: 'data.status' },
    },
  });

  test('an api tool sends its request once, with parameters in place and the stored secret', async () => {
    const tool = (await platform.api.post('/tools', key, orderTool())).body.data;
    const before = orders.received.length;
    const response = await platform.api.post(`/tools/${tool.id}/test`, key, {
      arguments: { order_id: 'A/17', verbose: true, 'X-Trace': 'trace-1', amount: 12.5 },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      status: 200,
      body: { data: { status: 'shipped', eta: '2026-12-01' } },
      mapped: { status: 'shipped' },
      duration_ms: expect.any(Number),
    });
    expect(orders.received).toHaveLength(before + 1);
    const sent = orders.received[before]!;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/orders/A%2F17?verbose=true');
    expect(sent.headers['x-api-key']).toBe(secrets.apiHeader);
    expect(sent.headers['x-trace']).toBe('trace-1');
    expect(JSON.parse(sent.body)).toEqual({ amount: 12.5, channel: 'voice' });
  });

  test('after a PATCH that sends the mask back, the stored secret is still the one sent', async () => {
    const tool = (await platform.api.post('/tools', key, orderTool())).body.data;
    const config = { ...tool.config, headers: { 'X-Api-Key': mask }, timeout_ms: 3000 };
    const patched = await platform.api.patch(`/tools/${tool.id}`, key, { config, expected_revision: 1 });
    expect(patched.status).toBe(200);
    const before = orders.received.length;
    await platform.api.post(`/tools/${tool.id}/test`, key, { arguments: { order_id: '1' } });
    expect(orders.received[before]!.headers['x-api-key']).toBe(secrets.apiHeader);
  });

  test('arguments that do not fit the parameters are 400 and send nothing', async () => {
    const tool = (await platform.api.post('/tools', key, orderTool())).body.data;
    const before = orders.received.length;
    const missing = await platform.api.post(`/tools/${tool.id}/test`, key, { arguments: { amount: 1 } });
    expectError(missing, 400, 'invalid_request');
    expect(fieldsOf(missing)).toContain('arguments.order_id');
    const wrongType = await platform.api.post(`/tools/${tool.id}/test`, key, { arguments: { order_id: '1', amount: 'lots' } });
    expect(fieldsOf(wrongType)).toContain('arguments.amount');
    const unknown = await platform.api.post(`/tools/${tool.id}/test`, key, { arguments: { order_id: '1', colour: 'red' } });
    expect(fieldsOf(unknown)).toContain('arguments.colour');
    const badBody = await platform.api.post(`/tools/${tool.id}/test`, key, { args: {} });
    expect(fieldsOf(badBody)).toContain('args');
    expect(orders.received).toHaveLength(before);
  });

  test('an upstream that does not answer in timeout_ms is a timeout result, not an error', async () => {
    const silent = await startHttpApi(() => {});
    const tool = (await platform.api.post('/tools', key, { name: 'slow_tool', type: 'api', config: { url: `${silent.url}/x`, timeout_ms: 300 } })).body.data;
    const response = await platform.api.post(`/tools/${tool.id}/test`, key, {});
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ status: null, body: null, error: { code: 'timeout', message: expect.any(String) }, duration_ms: expect.any(Number) });
    expect(response.body.data.duration_ms).toBeGreaterThanOrEqual(250);
    await silent.close();
  });

  test('an upstream answer nested deeper than can be carried is a bad_response result', async () => {
    const nested = (depth: number): unknown => (depth === 0 ? 1 : [nested(depth - 1)]);
    const deep = await startHttpApi((_request, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(nested(150)));
    });
    const tool = (await platform.api.post('/tools', key, { name: 'deep_answer', type: 'api', config: { url: `${deep.url}/x` } })).body.data;
    const response = await platform.api.post(`/tools/${tool.id}/test`, key, {});
    expect(response.status).toBe(200);
    expect(response.body.data.error.code).toBe('bad_response');
    await deep.close();
  });

  test('an upstream that refuses connections is an unreachable result', async () => {
    const gone = await startHttpApi();
    await gone.close();
    const tool = (await platform.api.post('/tools', key, { name: 'gone_tool', type: 'api', config: { url: `${gone.url}/x` } })).body.data;
    const response = await platform.api.post(`/tools/${tool.id}/test`, key, {});
    expect(response.body.data.error.code).toBe('unreachable');
  });

  test("an mcp tool lists its server's tools, filtered by allowed_tools, with the stored token", async () => {
    const tool = (
      await platform.api.post('/tools', key, {
        name: 'orders_mcp',
        type: 'mcp',
        config: { url: mcp.url, auth_type: 'bearer', auth_value_encrypted: secrets.mcpToken, allowed_tools: ['lookup_order'] },
      })
    ).body.data;
    const response = await platform.api.post(`/tools/${tool.id}/test`, key, {});
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      tools: [{ name: 'lookup_order', description: 'Finds an order', input_schema: expect.objectContaining({ type: 'object' }) }],
      duration_ms: expect.any(Number),
    });
    expect(mcp.received.every((r) => r.headers.authorization === `Bearer ${secrets.mcpToken}`)).toBe(true);
  });

  test('a builtin tool cannot be tested on its own (400)', async () => {
    const tool = (await platform.api.post('/tools', key, { name: 'hang_up', type: 'builtin', config: { type: 'end_call' } })).body.data;
    expectError(await platform.api.post(`/tools/${tool.id}/test`, key, {}), 400, 'invalid_request');
  });

  test('an unknown tool is 404', async () => {
    expectError(await platform.api.post('/tools/6f1c1d7e-9a5b-4c1e-8f00-123456789abc/test', key, {}), 404, 'not_found');
  });
});

describe('with the default egress guard', () => {
  let platform: TestPlatform;
  let key: string;
  let target: Loopback;

  beforeAll(async () => {
    platform = await startTestPlatform();
    key = (await platform.workspace()).key;
    target = await startHttpApi();
  });
  afterAll(async () => {
    await Promise.all([platform.close(), target.close()]);
  });

  test.each([
    ['a loopback address', (port: string) => `http://127.0.0.1:${port}/x`],
    ['a host name resolving to loopback (checked after DNS)', (port: string) => `http://localhost:${port}/x`],
    ['an IPv6 loopback literal', (port: string) => `http://[::1]:${port}/x`],
    ['an IPv4-mapped IPv6 loopback', (port: string) => `http://[::ffff:127.0.0.1]:${port}/x`],
    ['a decimal loopback', (port: string) => `http://2130706433:${port}/x`],
  ])('%s is 403 destination_forbidden and nothing is sent', async (_case, url) => {
    const port = new URL(target.url).port;
    const tool = (await platform.api.post('/tools', key, { name: `guarded_${Math.random().toString(36).slice(2, 8)}`, type: 'api', config: { url: url(port) } })).body.data;
    const response = await platform.api.post(`/tools/${tool.id}/test`, key, {});
    expectError(response, 403, 'destination_forbidden');
    expect(target.received).toHaveLength(0);
  });

  // Only loopback forms here: were the guard ever broken, a test must not send traffic anywhere
  // else. Private and metadata ranges are covered through the policy in the runtime's egress tests.
  test.each(['http://[::ffff:0:127.0.0.1]/x', 'http://0.0.0.0/x'])(
    'the loopback form %s is 403 destination_forbidden, refused before connecting',
    async (url) => {
      const tool = (await platform.api.post('/tools', key, { name: `private_${Math.random().toString(36).slice(2, 8)}`, type: 'api', config: { url, timeout_ms: 1000 } })).body.data;
      const response = await platform.api.post(`/tools/${tool.id}/test`, key, {});
      expectError(response, 403, 'destination_forbidden');
    },
  );

  test('an mcp tool on a private address is refused the same way', async () => {
    const tool = (await platform.api.post('/tools', key, { name: 'private_mcp', type: 'mcp', config: { url: `${target.url}/mcp` } })).body.data;
    expectError(await platform.api.post(`/tools/${tool.id}/test`, key, {}), 403, 'destination_forbidden');
    expect(target.received).toHaveLength(0);
  });
});
