// Memory and AI-inference settings through the gateway: defaults, partial updates that lose no
// concurrent one, provider keys encrypted at rest, write-only and masked, the key test against a
// loopback double of the provider APIs, the allowed providers applied to assistants, and MCP.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expectError, fieldsOf } from './support/api-client.js';
import { startHttpApi, type Loopback } from './support/loopback.js';
import { testStoreKind } from './support/mongodb-store.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { mask } from './support/tools.js';

const keys = { openai: 'sk-openai-good-4f9a2c7e', anthropic: 'sk-ant-good-8b1d3e5f', bad: 'sk-bad-key-0000000' };

let provider: Loopback;
let platform: TestPlatform;
let workspace: { id: string; key: string };

beforeAll(async () => {
  // One double for every provider: it accepts the good keys whatever header carries them.
  provider = await startHttpApi((request, res) => {
    const sent = String(request.headers.authorization ?? '').replace(/^Bearer /, '') || String(request.headers['x-api-key'] ?? request.headers['x-goog-api-key'] ?? '');
    if (sent === 'sk-provider-down-000') return void res.writeHead(503).end();
    res.writeHead(Object.values(keys).slice(0, 2).includes(sent) ? 200 : 401, { 'content-type': 'application/json' }).end('{"data":[]}');
  });
  platform = await startTestPlatform({
    VOICE_EGRESS_ALLOW_PRIVATE: 'true',
    VOICE_OPENAI_API_URL: provider.url,
    VOICE_ANTHROPIC_API_URL: provider.url,
    VOICE_GOOGLE_AI_API_URL: provider.url,
  });
  workspace = await platform.workspace({ plan: 'pro' });
});
afterAll(async () => {
  await platform.close();
  await provider.close();
});

describe('memory', () => {
  test('defaults until changed; a PATCH changes only what it sends; bad values are 400', async () => {
    const { key } = await platform.workspace();
    expect((await platform.api.get('/settings/memory', key)).body).toEqual({
      data: { enabled: false, remember: ['caller_name', 'conversation_summaries'], retention_days: 90, updated_at: null },
    });
    const changed = await platform.api.patch('/settings/memory', key, { enabled: true, retention_days: 30 });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toEqual({ enabled: true, remember: ['caller_name', 'conversation_summaries'], retention_days: 30, updated_at: expect.any(String) });
    expect((await platform.api.get('/settings/memory', key)).body).toEqual(changed.body);
    const bad = await platform.api.patch('/settings/memory', key, { retention_days: 0, remember: ['everything'], forget: true });
    expectError(bad, 400, 'invalid_request');
    expect(fieldsOf(bad).sort()).toEqual(['forget', 'remember.0', 'retention_days']);
  });

  test('concurrent PATCHes of different fields all land', async () => {
    const { key } = await platform.workspace();
    const answers = await Promise.all([
      platform.api.patch('/settings/memory', key, { enabled: true }),
      platform.api.patch('/settings/memory', key, { retention_days: 7 }),
      platform.api.patch('/settings/memory', key, { remember: ['preferences'] }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect((await platform.api.get('/settings/memory', key)).body.data).toMatchObject({ enabled: true, retention_days: 7, remember: ['preferences'] });
  });

  test('settings:read reads, settings:write writes, nothing else does; workspaces never see each other’s', async () => {
    const reader = await platform.key(workspace.id, ['settings:read']);
    expect((await platform.api.get('/settings/memory', reader)).status).toBe(200);
    expectError(await platform.api.patch('/settings/memory', reader, { enabled: true }), 403, 'forbidden');
    const assistantsOnly = await platform.key(workspace.id, ['assistants:write']);
    expectError(await platform.api.get('/settings/ai-inference', assistantsOnly), 403, 'forbidden');
    expectError(await platform.api.post('/settings/ai-inference/test-key', reader, { provider: 'openai' }), 403, 'forbidden');
    await platform.api.patch('/settings/memory', workspace.key, { retention_days: 365 });
    const other = await platform.workspace();
    expect((await platform.api.get('/settings/memory', other.key)).body.data.retention_days).toBe(90);
  });
});

describe('AI inference', () => {
  test('provider keys are write-only: masked, kept by the mask, removed by null, encrypted at rest', async () => {
    const { key } = await platform.workspace({ plan: 'pro' });
    expect((await platform.api.get('/settings/ai-inference', key)).body.data).toEqual({
      default_model: { provider: 'openai', model: 'gpt-4o-mini' },
      allowed_providers: ['openai', 'anthropic', 'google'],
      provider_keys: {},
      updated_at: null,
    });
    const set = await platform.api.patch('/settings/ai-inference', key, { provider_keys: { openai: keys.openai, anthropic: keys.anthropic } });
    expect(set.body.data.provider_keys).toEqual({ openai: mask, anthropic: mask });
    const kept = await platform.api.patch('/settings/ai-inference', key, { provider_keys: { openai: mask, anthropic: null } });
    expect(kept.body.data.provider_keys).toEqual({ openai: mask });
    const nothingStored = await platform.api.patch('/settings/ai-inference', key, { provider_keys: { google: mask } });
    expect(fieldsOf(nothingStored)).toEqual(['provider_keys.google']);
    expect((await platform.api.post('/settings/ai-inference/test-key', key, { provider: 'openai' })).body.data.result).toBe('valid');
    expect(platform.api.transcript.join('\n')).not.toContain(keys.openai);
    if (testStoreKind === 'sqlite') {
      const files = readdirSync(platform.dataDir, { recursive: true }).map(String).filter((file) => file.includes('assistants.sqlite'));
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const path = join(platform.dataDir, file);
        if (statSync(path).isFile()) expect(readFileSync(path).includes(keys.openai)).toBe(false);
      }
    }
  });

  test('concurrent key changes for different providers all land', async () => {
    const { key } = await platform.workspace({ plan: 'pro' });
    const answers = await Promise.all(
      (['openai', 'anthropic', 'google'] as const).map((name) => platform.api.patch('/settings/ai-inference', key, { provider_keys: { [name]: `sk-${name}-concurrent-1` } })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect((await platform.api.get('/settings/ai-inference', key)).body.data.provider_keys).toEqual({ openai: mask, anthropic: mask, google: mask });
  });

  test('the default model comes from the catalog and the plan; the allowed providers bind it and every assistant', async () => {
    const pro = await platform.workspace({ plan: 'pro' });
    const starter = await platform.workspace({ plan: 'starter' });
    const unknown = await platform.api.patch('/settings/ai-inference', pro.key, { default_model: { provider: 'openai', model: 'gpt-9' } });
    expectError(unknown, 400, 'invalid_request');
    expect(fieldsOf(unknown)).toEqual(['default_model.model']);
    expectError(await platform.api.patch('/settings/ai-inference', starter.key, { default_model: { provider: 'openai', model: 'gpt-4o' } }), 403, 'forbidden');
    const disallowed = await platform.api.patch('/settings/ai-inference', pro.key, { allowed_providers: ['anthropic'] });
    expect(fieldsOf(disallowed)).toEqual(['allowed_providers']);
    const narrowed = await platform.api.patch('/settings/ai-inference', pro.key, {
      default_model: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
      allowed_providers: ['anthropic'],
    });
    expect(narrowed.body.data).toMatchObject({ default_model: { provider: 'anthropic', model: 'claude-sonnet-4-5' }, allowed_providers: ['anthropic'] });
    const refused = await platform.api.post('/assistants', pro.key, { name: 'OpenAI one' });
    expect(fieldsOf(refused)).toEqual(['model.provider']);
    expect((await platform.api.post('/assistants', pro.key, { name: 'Claude one', model: { provider: 'anthropic', model: 'claude-haiku-4-5' } })).status).toBe(201);
  });

  test('the key test asks the provider through the egress guard: valid, invalid, provider errors, nothing stored', async () => {
    const { key } = await platform.workspace({ plan: 'pro' });
    await platform.api.patch('/settings/ai-inference', key, { provider_keys: { anthropic: keys.anthropic } });
    const before = provider.received.length;
    const valid = await platform.api.post('/settings/ai-inference/test-key', key, { provider: 'anthropic' });
    expect(valid.body.data).toEqual({ provider: 'anthropic', result: 'valid', message: expect.any(String), provider_status: 200, duration_ms: expect.any(Number) });
    const sent = provider.received[before]!;
    expect([sent.method, sent.url, sent.headers['x-api-key'], sent.headers['anthropic-version']]).toEqual(['GET', '/v1/models', keys.anthropic, '2023-06-01']);
    expect((await platform.api.post('/settings/ai-inference/test-key', key, { provider: 'openai', api_key: keys.bad })).body.data).toMatchObject({ result: 'invalid', provider_status: 401 });
    expect((await platform.api.post('/settings/ai-inference/test-key', key, { provider: 'google', api_key: 'sk-provider-down-000' })).body.data).toMatchObject({
      result: 'provider_error',
      provider_status: 503,
    });
    expect(provider.received.at(-1)!.headers['x-goog-api-key']).toBe('sk-provider-down-000');
    const none = await platform.api.post('/settings/ai-inference/test-key', key, { provider: 'openai' });
    expect(fieldsOf(none)).toEqual(['api_key']);
  });

  test('a provider address the egress guard refuses is 403 destination_forbidden and nothing is sent', async () => {
    const guarded = await startTestPlatform({ VOICE_OPENAI_API_URL: provider.url });
    try {
      const { key } = await guarded.workspace({ plan: 'pro' });
      const before = provider.received.length;
      expectError(await guarded.api.post('/settings/ai-inference/test-key', key, { provider: 'openai', api_key: keys.openai }), 403, 'destination_forbidden');
      expect(provider.received.length).toBe(before);
    } finally {
      await guarded.close();
    }
  });
});

test('the settings toolset offers the four settings tools and the e-mail senders, answering as REST does', async () => {
  const { key } = await platform.workspace({ plan: 'pro' });
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${platform.running.url}/mcp?toolsets=settings`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  try {
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['get_ai_inference_settings', 'get_memory_settings', 'list_email_senders', 'update_ai_inference_settings', 'update_memory_settings']);
    const updated = (await client.callTool({ name: 'update_memory_settings', arguments: { enabled: true } })) as { structuredContent: unknown };
    expect(updated.structuredContent).toEqual((await platform.api.get('/settings/memory', key)).body);
    const inference = (await client.callTool({ name: 'update_ai_inference_settings', arguments: { provider_keys: { google: 'sk-google-from-mcp-1' } } })) as { structuredContent?: { data: unknown } };
    expect(inference.structuredContent?.data).toMatchObject({ provider_keys: { google: mask } });
    const invalid = (await client.callTool({ name: 'update_memory_settings', arguments: { retention_days: -1 } })) as { isError: boolean };
    expect(invalid.isError).toBe(true);
  } finally {
    await client.close();
  }
});
