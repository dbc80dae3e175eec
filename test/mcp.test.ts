// /mcp through the real gateway with the official SDK client: tools listed by scope, plan and
// toolset; calls in every toolset answering the same JSON as REST; errors as isError results with
// the REST code; the transport rules of MCP 2025-11-25 (Origin, protocol version, Accept, 401).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { canonicalScopes } from '@voice/runtime/access';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const mcpUrl = (query = '') => new URL(`${platform.running.url}/mcp${query}`);

async function connect(key: string, query = '', target: TestPlatform = platform): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${target.running.url}/mcp${query}`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();
type ToolAnswer = { isError?: boolean; structuredContent?: any; content: { type: string; text?: string }[] };
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as ToolAnswer;
const errorOf = (answer: ToolAnswer) => JSON.parse(answer.content[0]!.text!).error as { code: string; message: string; details?: { field: string }[] };

const allTools = [
  'add_custom_domain', 'buy_phone_number', 'assign_phone_number', 'create_api_key', 'create_platform_user_token', 'get_balance',
  'get_custom_domain', 'get_me', 'get_platform_user', 'get_usage_summary', 'list_api_keys', 'list_phone_numbers', 'list_platform_users',
  'logout_platform_user', 'register_platform_user', 'release_phone_number', 'remove_custom_domain', 'revoke_api_key', 'search_phone_numbers',
  'send_sms', 'transfer_platform_credits', 'verify_custom_domain',
  'list_sip_trunks', 'get_sip_trunk', 'create_sip_trunk', 'delete_sip_trunk',
  'list_assistants', 'get_assistant', 'create_assistant', 'update_assistant', 'delete_assistant', 'get_voices',
  'get_memory_settings', 'update_memory_settings', 'get_ai_inference_settings', 'update_ai_inference_settings',
  'list_knowledge_bases', 'get_knowledge_base', 'create_knowledge_base', 'delete_knowledge_base', 'add_document',
  'make_call', 'list_calls', 'get_call',
  'list_email_senders', 'list_history', 'get_email_history_item',
  'list_campaigns', 'get_campaign', 'get_campaign_stats', 'create_campaign', 'update_campaign', 'delete_campaign', 'start_campaign', 'stop_campaign',
  'list_leads', 'add_lead', 'add_leads', 'remove_lead_from_campaign', 'delete_lead',
].sort();

test('an unrestricted enterprise key sees every tool, each with a schema and annotations', async () => {
  const { key } = await platform.workspace({ plan: 'enterprise' });
  const client = await connect(key);
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(allTools);
  for (const tool of tools) {
    expect(tool.inputSchema.type).toBe('object');
    expect(tool.annotations).toEqual(expect.objectContaining({ readOnlyHint: expect.any(Boolean), destructiveHint: expect.any(Boolean), idempotentHint: expect.any(Boolean) }));
    expect(tool.description?.length).toBeGreaterThan(10);
  }
  const sms = tools.find((tool) => tool.name === 'send_sms')!;
  expect(Object.keys(sms.inputSchema.properties ?? {}).sort()).toEqual(['body', 'from_number_id', 'idempotency_key', 'to']);
  expect(tools.find((tool) => tool.name === 'get_balance')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  expect(tools.find((tool) => tool.name === 'revoke_api_key')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  await client.close();
});

test('tools the scopes cannot use are not listed; toolsets narrow the list; unknown toolsets are a 400', async () => {
  const { key } = await platform.workspace({ plan: 'enterprise', scopes: ['billing:read'] });
  const client = await connect(key);
  expect(await toolNames(client)).toEqual(['get_balance', 'get_me', 'get_usage_summary']);
  await client.close();

  const full = await platform.workspace({ plan: 'enterprise' });
  const platformOnly = await connect(full.key, '?toolsets=platform');
  expect(await toolNames(platformOnly)).toEqual(
    ['add_custom_domain', 'create_platform_user_token', 'get_custom_domain', 'get_platform_user', 'list_platform_users', 'logout_platform_user', 'register_platform_user', 'remove_custom_domain', 'transfer_platform_credits', 'verify_custom_domain'],
  );
  await platformOnly.close();
  const two = await connect(full.key, '?toolsets=billing,account');
  expect(await toolNames(two)).toEqual(['create_api_key', 'get_balance', 'get_me', 'get_usage_summary', 'list_api_keys', 'revoke_api_key']);
  await two.close();

  const unknown = await fetch(mcpUrl('?toolsets=platform,nonsense'), {
    method: 'POST',
    headers: { authorization: `Bearer ${full.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect(unknown.status).toBe(400);
  expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain('nonsense');
});

test('calls answer the same JSON as REST, in every toolset', async () => {
  const { id, key } = await platform.workspace({ plan: 'enterprise' });
  await platform.fund(id, '20');
  const client = await connect(key);

  const me = await call(client, 'get_me');
  expect(me.isError).toBeFalsy();
  expect(me.structuredContent).toEqual((await platform.api.get('/me', key)).body);
  expect(JSON.parse(me.content[0]!.text!)).toEqual(me.structuredContent);

  expect((await call(client, 'get_balance')).structuredContent).toEqual((await platform.api.get('/balance', key)).body);
  expect((await call(client, 'get_usage_summary', { from: '2026-01-01T00:00:00.000Z' })).structuredContent.data.from).toBe('2026-01-01T00:00:00.000Z');

  const created = await call(client, 'create_api_key', { name: 'from mcp', scopes: ['billing:read'] });
  expect(created.structuredContent.data).toMatchObject({ name: 'from mcp', scopes: ['billing:read'], key: expect.stringMatching(/^svc_/) });
  expect((await call(client, 'list_api_keys', { limit: 200 })).structuredContent.meta.pagination.total).toBeGreaterThanOrEqual(2);
  expect((await call(client, 'revoke_api_key', { id: created.structuredContent.data.id })).structuredContent).toEqual({ data: { id: created.structuredContent.data.id, deleted: true } });

  const search = await call(client, 'search_phone_numbers', { country: 'US', limit: 1 });
  const number = search.structuredContent.data[0].number;
  const bought = await call(client, 'buy_phone_number', { number });
  expect(bought.structuredContent.data).toMatchObject({ number, source: 'marketplace' });
  const enabled = await call(client, 'assign_phone_number', { id: bought.structuredContent.data.id, sms_outbound_enabled: true });
  expect(enabled.structuredContent.data.sms_outbound_enabled).toBe(true);
  const sms = await call(client, 'send_sms', { from_number_id: bought.structuredContent.data.id, to: '+442071838750', body: 'hello from MCP', idempotency_key: 'mcp-1' });
  expect(sms.structuredContent.data).toMatchObject({ to: '+442071838750', segments: 1 });
  const again = await call(client, 'send_sms', { from_number_id: bought.structuredContent.data.id, to: '+442071838750', body: 'hello from MCP', idempotency_key: 'mcp-1' });
  expect(again.structuredContent.data.id).toBe(sms.structuredContent.data.id);
  expect((await call(client, 'list_phone_numbers')).structuredContent).toEqual((await platform.api.get('/phone-numbers', key)).body);

  const user = await call(client, 'register_platform_user', { email: `mcp.${process.pid}@customers.example`, name: 'MCP User', password: 'correct horse battery' });
  const userId = user.structuredContent.data.id;
  expect((await call(client, 'get_platform_user', { user_id: userId })).structuredContent.data.email).toBe(`mcp.${process.pid}@customers.example`);
  expect((await call(client, 'list_platform_users', { q: 'mcp.' })).structuredContent.meta.pagination.total).toBe(1);
  expect((await call(client, 'transfer_platform_credits', { user_id: userId, amount: '1.5' })).structuredContent.data.amount).toBe('1.5000');
  const token = await call(client, 'create_platform_user_token', { user_id: userId });
  expect(token.structuredContent.data.access_token).toMatch(/^svc_at_/);
  expect((await call(client, 'logout_platform_user', { user_id: userId })).structuredContent.data.revoked_tokens).toBe(2);

  expect((await call(client, 'get_custom_domain')).isError).toBe(true);
  const domain = await call(client, 'add_custom_domain', { domain: `mcp-${process.pid}.tenant.example` });
  expect(domain.structuredContent.data.status).toBe('pending_verification');
  expect((await call(client, 'get_custom_domain')).structuredContent).toEqual((await platform.api.get('/custom-domain', key)).body);
  expect((await call(client, 'verify_custom_domain')).structuredContent.data.status).toBe('pending_verification');
  expect((await call(client, 'remove_custom_domain')).structuredContent.data.deleted).toBe(true);
  await client.close();
});

test('errors are isError results with the REST code and message; nothing changes', async () => {
  const { key } = await platform.workspace({ plan: 'enterprise' });
  const client = await connect(key);
  const bad = await call(client, 'create_api_key', { name: '', scopes: [] });
  expect(bad.isError).toBe(true);
  expect(errorOf(bad).code).toBe('invalid_request');
  expect(errorOf(bad).details?.map((detail) => detail.field)).toEqual(expect.arrayContaining(['name', 'scopes']));
  const rest = await platform.api.post('/api-keys', key, { name: '', scopes: [] });
  expect(errorOf(bad)).toEqual(rest.body.error);

  expect(errorOf(await call(client, 'get_platform_user', { user_id: '00000000-0000-4000-8000-000000000000' })).code).toBe('not_found');
  expect(errorOf(await call(client, 'get_balance', { surprise: 1 })).code).toBe('invalid_request');
  expect(errorOf(await call(client, 'release_phone_number', {})).code).toBe('invalid_request');
  expect(errorOf(await call(client, 'transfer_platform_credits', { user_id: '00000000-0000-4000-8000-000000000000', amount: 'ten' })).code).toBe('invalid_request');
  // A JSON-RPC error, said once: the SDK client prefixes "MCP error <code>:" itself.
  const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((error: Error) => error);
  expect(unknown).toBeInstanceOf(Error);
  expect((unknown as Error).message).toBe('MCP error -32602: unknown tool no_such_tool; tools/list lists the tools of this endpoint');
  expect((await platform.api.get('/api-keys', key)).body.meta.pagination.total).toBe(1);
  await client.close();
});

/** One JSON-RPC message (or anything else) to /mcp, as a client without the SDK sends it. */
const rawPost = (key: string | undefined, body: unknown, query = '') =>
  fetch(mcpUrl(query), {
    method: 'POST',
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify(body),
  });
type RpcAnswer = { jsonrpc: string; id: unknown; error?: { code: number; message: string }; result?: any };

test('MCP 2025-11-25 to the letter: integer page arguments, -32602 for malformed arguments, no batches', async () => {
  const { key } = await platform.workspace({ plan: 'enterprise' });
  const client = await connect(key);
  const { tools } = await client.listTools();
  const listKeys = tools.find((tool) => tool.name === 'list_api_keys')!;
  expect(listKeys.inputSchema.properties).toMatchObject({
    limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
    offset: { type: 'integer', minimum: 0, default: 0 },
  });
  await call(client, 'create_api_key', { name: 'second', scopes: ['billing:read'] });
  const page = await call(client, 'list_api_keys', { limit: 1, offset: 1 });
  expect(page.isError).toBeUndefined();
  expect(page.structuredContent.meta.pagination).toEqual({ limit: 1, offset: 1, total: 2 });
  expect(page.structuredContent.data).toHaveLength(1);
  expect(errorOf(await call(client, 'list_api_keys', { limit: 0 })).details).toEqual([{ field: 'limit', issue: 'must be an integer from 1 to 200' }]);
  await client.close();

  for (const [args, said] of [[[1, 2], 'not an array'], ['x', 'not a string'], [null, 'not null']] as const) {
    const answer = await rawPost(key, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_balance', arguments: args } });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as RpcAnswer;
    expect(body).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: `params.arguments must be an object of the tool’s input (its inputSchema), ${said}` } });
  }
  const noName = (await (await rawPost(key, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { arguments: {} } })).json()) as RpcAnswer;
  expect(noName.error).toEqual({ code: -32602, message: 'params.name must be the name of a tool (tools/list lists them)' });

  const batch = await rawPost(key, [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }]);
  expect(batch.status).toBe(400);
  expect(((await batch.json()) as RpcAnswer).error).toEqual({ code: -32600, message: expect.stringContaining('batches are not supported') });
});

test('scope challenges: a tool outside the token’s scopes is a 403 naming the scopes to step up to; the 401 names the scopes to start with', async () => {
  const reader = await platform.workspace({ plan: 'enterprise', scopes: ['billing:read'] });
  const limited = await connect(reader.key);
  expect(await toolNames(limited)).toEqual(['get_balance', 'get_me', 'get_usage_summary']);
  await limited.close();

  const metadataUrl = `${platform.running.url}/.well-known/oauth-protected-resource/mcp`;
  const keyReader = await platform.key(reader.id, ['settings:read']);
  const keysBefore = (await platform.api.get('/api-keys', keyReader)).body.meta.pagination.total;
  const refused = await rawPost(reader.key, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'create_api_key', arguments: { name: 'x', scopes: ['billing:read'] } } });
  expect(refused.status).toBe(403);
  expect(refused.headers.get('www-authenticate')).toBe(
    `Bearer error="insufficient_scope", scope="billing:read settings:write", resource_metadata="${metadataUrl}", error_description="this tool needs the settings:write scope"`,
  );
  expect(((await refused.json()) as RpcAnswer)).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'this credential lacks the settings:write scope' } });
  expect((await platform.api.get('/api-keys', keyReader)).body.meta.pagination.total).toBe(keysBefore);

  const scopeOf = (answer: Response) => /scope="([^"]*)"/.exec(answer.headers.get('www-authenticate') ?? '')?.[1];
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const billingOnly = await rawPost(undefined, initialize, '?toolsets=billing');
  expect(billingOnly.status).toBe(401);
  expect(scopeOf(billingOnly)).toBe('billing:read');
  const everything = scopeOf(await rawPost(undefined, initialize));
  // Every toolset's read scopes, no write scope, far fewer than the server's scopes_supported.
  const named = everything!.split(' ');
  expect(named).toEqual([...new Set(named)].sort());
  expect(named).toEqual(expect.arrayContaining(['assistants:read', 'billing:read', 'phone_numbers:read', 'platform:read', 'settings:read']));
  expect(named.filter((scope) => !scope.endsWith(':read'))).toEqual([]);
  expect(named.length).toBeLessThan(canonicalScopes.length / 2);
});

test('the plan gate: a workspace without the mcp feature is 403; no credential is 401 naming the MCP resource metadata', async () => {
  const starter = await platform.workspace({ plan: 'starter', scopes: canonicalScopes });
  const initialize = (headers: Record<string, string>) =>
    fetch(mcpUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
  const forbidden = await initialize({ authorization: `Bearer ${starter.key}` });
  expect(forbidden.status).toBe(403);
  expect(((await forbidden.json()) as { error: { code: string } }).error.code).toBe('forbidden');

  const anonymous = await initialize({});
  expect(anonymous.status).toBe(401);
  expect(anonymous.headers.get('www-authenticate')).toContain(`resource_metadata="${platform.running.url}/.well-known/oauth-protected-resource/mcp"`);
  const metadata = (await (await fetch(`${platform.running.url}/.well-known/oauth-protected-resource/mcp`)).json()) as { resource: string };
  expect(metadata.resource).toBe(`${platform.running.url}/mcp`);
});

test('transport rules: foreign Origin 403, unsupported protocol version 400, wrong Accept 406, GET 405', async () => {
  const { key } = await platform.workspace({ plan: 'pro' });
  const post = (headers: Record<string, string>, body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list' }) =>
    fetch(mcpUrl(), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
  expect((await post({ origin: 'https://evil.example' })).status).toBe(403);
  expect((await post({ origin: new URL(platform.running.url).origin, 'mcp-protocol-version': '2025-11-25' })).status).toBe(200);
  expect((await post({ 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
  expect((await post({ accept: 'text/html' })).status).toBe(406);
  const get = await fetch(mcpUrl(), { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } });
  expect(get.status).toBe(405);
  expect(get.headers.get('allow')).toBe('POST');
});

test('MCP requests count against the account’s rate limit shared with REST: 429 rate_limited with Retry-After', async () => {
  const limited = await startTestPlatform({ VOICE_RATE_LIMITS: 'starter=4,pro=4,enterprise=4', VOICE_RATE_LIMIT_WINDOW_SECONDS: '3600' });
  try {
    const a = await limited.workspace({ plan: 'pro' });
    const b = await limited.workspace({ plan: 'pro' });
    const listTools = (key: string) =>
      fetch(`${limited.running.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    // Two REST requests and two MCP requests use up the window of 4.
    expect((await limited.api.get('/me', a.key)).status).toBe(200);
    expect((await limited.api.get('/me', a.key)).status).toBe(200);
    const remaining: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const answer = await listTools(a.key);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-limit')).toBe('4');
      remaining.push(answer.headers.get('ratelimit-remaining') ?? '');
      await answer.arrayBuffer();
    }
    expect(remaining).toEqual(['1', '0']);

    const refused = await listTools(a.key);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    expect((await limited.api.get('/me', a.key)).status).toBe(429);
    // The SDK client cannot even initialize once the account is over its limit.
    await expect(connect(a.key, '', limited)).rejects.toThrow(/429|rate/i);

    // Another account is unaffected.
    const other = await listTools(b.key);
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-remaining')).toBe('3');
  } finally {
    await limited.close();
  }
});

