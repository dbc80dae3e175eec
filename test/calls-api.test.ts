// POST /calls, GET /calls and GET /calls/{id} through the gateway with the sandbox carrier: every
// precondition and its own error in order, the funds held for the call's longest length (never
// more than the wallet covers, even for concurrent calls), idempotent retries, filters, scopes,
// other workspaces, and the same operations as MCP tools.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expectError, fieldsOf } from './support/api-client.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { availableCreditsReach, balance, buySmsNumber, eventually } from './support/telephony.js';

let platform: TestPlatform;

beforeAll(async () => {
  // Numbers are free here, so the balance moves only by calls.
  platform = await startTestPlatform({ VOICE_NUMBER_MONTHLY_CREDITS: '0' });
});
afterAll(() => platform.close());

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const destination = '+14155550123';
// The default per-minute rate is 0.1000 credits.

/** A workspace with credits, a voice number and an assistant of at most `maxSeconds`. */
async function ready(options: { credits?: string; maxSeconds?: number; plan?: string; model?: string } = {}) {
  const workspace = await platform.workspace({ plan: options.plan ?? 'pro' });
  if (options.credits !== '0') await platform.fund(workspace.id, options.credits ?? '10.0000');
  const number = await buySmsNumber(platform.api, workspace.key, { enable: false });
  const assistant = await platform.api.post('/assistants', workspace.key, {
    name: 'Caller',
    first_message: 'Hello {{name}}',
    model: { provider: 'openai', model: options.model ?? 'gpt-4o-mini' },
    end_call: { max_duration_seconds: options.maxSeconds ?? 600 },
  });
  expect(assistant.status).toBe(201);
  return { ...workspace, number, assistantId: assistant.body.data.id as string, version: assistant.body.data.revision as number };
}

/** The sandbox runtime keeps these calls talking (test/calls-lifecycle.test.ts follows calls to their end), so their holds stay open. */
const holdOn = { sandbox_script: [{ pause_ms: 600_000 }] };

const place = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  platform.api.post('/calls', key, { metadata: holdOn, ...body }, { headers });

describe('placing a call', () => {
  test('201 queued with the call; its longest length is held; nothing internal is shown', async () => {
    const { key, number, assistantId } = await ready({ credits: '5.0000', maxSeconds: 600 });
    const response = await place(key, { assistant_id: assistantId, from: number.number, to: '+1 (415) 555-0123', variables: { name: 'Ada' }, metadata: { crm_id: 'c-1', ...holdOn } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        status: 'queued',
        direction: 'outbound',
        from: number.number,
        to: destination,
        assistant_id: assistantId,
        assistant_version: 1,
        variables: { name: 'Ada' },
        metadata: { crm_id: 'c-1', ...holdOn },
        created_at: expect.stringMatching(iso),
        answered_at: null,
        ended_at: null,
        duration_seconds: 0,
        minutes_charged: '0.000',
        credits_charged: '0.0000',
        end_reason: null,
        transcript: [],
        summary: null,
        analysis: { verdict: null, extracted_fields: {} },
        events: [],
        has_recording: false,
        updated_at: expect.stringMatching(iso),
      },
    });
    // Ten minutes at 0.1000 credits are held against the available balance; nothing is charged yet.
    expect(await balance(platform.api, key)).toEqual({ credits: '5.0000', minutes: '0.000', available: { credits: '4.0000', minutes: '0.000' } });
    const read = await platform.api.get(`/calls/${response.body.data.id}`, key);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: response.body.data.id, from: number.number, to: destination });
    expect(read.text).not.toMatch(/session_token|leg_id|hold_id|first_message|max_duration/);
  });

  test('each precondition answers its own error, in order, and holds or stores nothing', async () => {
    const { key, number, assistantId } = await ready({ credits: '1.0000' });
    const body = { assistant_id: assistantId, from: number.number, to: destination };
    const bad = await place(key, { ...body, to: '555', from: 'x', extra: 1 });
    expectError(bad, 400, 'invalid_request');
    expect(bad.body.error.details.map((detail: { field: string }) => detail.field).sort()).toEqual(['extra', 'from', 'to'].sort());
    expectError(await place(key, { ...body, variables: { 'bad name': 'x' } }), 400, 'invalid_request');
    expectError(await place(key, { ...body, metadata: { blob: 'x'.repeat(17_000) } }), 400, 'invalid_request');
    expectError(await place(key, { ...body, assistant_id: '0b9ae9a4-8b33-4a8e-9c55-0d9c3f0a2b51' }), 404, 'not_found');
    const other = await ready();
    expectError(await place(key, { ...body, assistant_id: other.assistantId }), 404, 'not_found');
    expectError(await place(key, { ...body, from: other.number.number }), 404, 'not_found');
    expectError(await place(key, { ...body, from: '+14155550199' }), 404, 'not_found');
    expect((await platform.api.post('/suppression', key, { number: destination, reason: 'asked not to be called' })).status).toBe(201);
    expectError(await place(key, body), 403, 'destination_forbidden');
    // The same destination is fine for another workspace.
    expect((await place(other.key, { assistant_id: other.assistantId, from: other.number.number, to: destination })).status).toBe(201);
    // A workspace that no longer allows the assistant's model provider cannot run it.
    const provider = await platform.api.patch('/settings/ai-inference', key, { allowed_providers: ['anthropic'], default_model: { provider: 'anthropic', model: 'claude-haiku-4-5' } });
    expect(provider.status).toBe(200);
    expectError(await place(key, { ...body, to: '+14155550124' }), 403, 'forbidden');
    expect((await platform.api.get('/calls', key)).body.meta.pagination.total).toBe(0);
    expect(await balance(platform.api, key)).toEqual({ credits: '1.0000', minutes: '0.000', available: { credits: '1.0000', minutes: '0.000' } });
  });

  test('a wallet that cannot pay one minute is 409; one that pays less than the longest call holds what it covers', async () => {
    const poor = await ready({ credits: '0.0999' });
    expectError(await place(poor.key, { assistant_id: poor.assistantId, from: poor.number.number, to: destination }), 409, 'conflict');
    expect(await balance(platform.api, poor.key)).toEqual({ credits: '0.0999', minutes: '0.000', available: { credits: '0.0999', minutes: '0.000' } });
    const some = await ready({ credits: '0.2500', maxSeconds: 600 });
    expect((await place(some.key, { assistant_id: some.assistantId, from: some.number.number, to: destination })).status).toBe(201);
    expect(await balance(platform.api, some.key)).toEqual({ credits: '0.2500', minutes: '0.000', available: { credits: '0.0500', minutes: '0.000' } });
  });

  test('an assistant that allows more than the 4 hours a carrier carries places its call, holding 4 hours', async () => {
    const { key, number, assistantId } = await ready({ credits: '30.0000', maxSeconds: 20_000 });
    const placed = await place(key, { assistant_id: assistantId, from: number.number, to: destination });
    expect(placed.status).toBe(201);
    // 240 minutes at 0.1000 credits.
    expect((await balance(platform.api, key)).available).toEqual({ credits: '6.0000', minutes: '0.000' });
  });

  test('concurrent calls against a small wallet never hold more than it has', async () => {
    const { key, number, assistantId } = await ready({ credits: '0.5000', maxSeconds: 120 });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => place(key, { assistant_id: assistantId, from: number.number, to: `+1415555016${i}` })));
    const statuses = answers.map((answer) => answer.status).sort();
    // Each call holds two minutes (0.2000 credits): two fit, a third gets the one minute left, the rest are refused.
    expect(statuses).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((answer) => answer.status === 409)) expectError(refused, 409, 'conflict');
    expect(await balance(platform.api, key)).toEqual({ credits: '0.5000', minutes: '0.000', available: { credits: '0.0000', minutes: '0.000' } });
  });

  test('an Idempotency-Key answers the first call again; another body under it is 409', async () => {
    const { key, number, assistantId } = await ready();
    const body = { assistant_id: assistantId, from: number.number, to: destination };
    const headers = { 'Idempotency-Key': `call-${Date.now()}` };
    const [first, second] = await Promise.all([place(key, body, headers), place(key, body, headers)]);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect([first.headers.get('idempotent-replayed'), second.headers.get('idempotent-replayed')].sort()).toEqual(['true', null].sort());
    expectError(await place(key, { ...body, to: '+14155550124' }, headers), 409, 'conflict');
    expect((await platform.api.get('/calls', key)).body.meta.pagination.total).toBe(1);
    // One call's hold (ten minutes) and no other.
    expect((await balance(platform.api, key)).available).toEqual({ credits: '9.0000', minutes: '0.000' });
  });

  test('a destination the carrier refuses fails the call and gives its hold back', async () => {
    const { key, number, assistantId } = await ready({ credits: '2.0000' });
    expectError(await place(key, { assistant_id: assistantId, from: number.number, to: '+15005550001' }), 403, 'destination_forbidden');
    const [failed] = (await platform.api.get('/calls', key)).body.data;
    expect(failed).toMatchObject({ status: 'failed', end_reason: 'failed', minutes_charged: '0.000', credits_charged: '0.0000' });
    expect(failed.ended_at).toMatch(iso);
    await availableCreditsReach(platform.api, key, '2.0000');
  });
});

describe('reading calls', () => {
  test('newest first with filters and pagination; another workspace sees none; malformed ids are 404', async () => {
    const { key, number, assistantId } = await ready();
    const ids: string[] = [];
    for (const to of ['+14155550131', '+14155550132', '+14155550133']) ids.push((await place(key, { assistant_id: assistantId, from: number.number, to })).body.data.id);
    const page = await platform.api.get('/calls?limit=2&offset=1', key);
    expect(page.status).toBe(200);
    expect(page.body.meta.pagination).toEqual({ limit: 2, offset: 1, total: 3 });
    expect(page.body.data.map((call: { id: string }) => call.id)).toEqual([ids[1], ids[0]]);
    const byNumber = await platform.api.get(`/calls?number=${encodeURIComponent('+14155550132')}`, key);
    expect(byNumber.body.data.map((call: { id: string }) => call.id)).toEqual([ids[1]]);
    expect((await platform.api.get(`/calls?assistant_id=${assistantId}&direction=outbound`, key)).body.meta.pagination.total).toBe(3);
    expect((await platform.api.get('/calls?status=completed', key)).body.meta.pagination.total).toBe(0);
    const firstCreated = (await platform.api.get(`/calls/${ids[0]}`, key)).body.data.created_at as string;
    const lastCreated = (await platform.api.get(`/calls/${ids[2]}`, key)).body.data.created_at as string;
    const range = await platform.api.get(`/calls?created_from=${encodeURIComponent(firstCreated)}&created_to=${encodeURIComponent(lastCreated)}`, key);
    expect(range.body.data.map((call: { id: string }) => call.id)).toEqual([ids[1], ids[0]]);
    expectError(await platform.api.get('/calls?status=lost', key), 400, 'invalid_request');
    expectError(await platform.api.get('/calls?number=12', key), 400, 'invalid_request');
    expectError(await platform.api.get('/calls?limit=500', key), 400, 'invalid_request');
    for (const [query, field] of [
      ['direction=sideways', 'direction'],
      ['assistant_id=not-a-uuid', 'assistant_id'],
      ['created_from=yesterday', 'created_from'],
      ['created_to=2026-13-01T00:00:00Z', 'created_to'],
      ['sort=oldest', 'sort'],
    ]) {
      const refused = await platform.api.get(`/calls?${query}`, key);
      expectError(refused, 400, 'invalid_request');
      expect(fieldsOf(refused)).toEqual([field]);
    }
    const other = await platform.workspace();
    expectError(await platform.api.get(`/calls/${ids[0]}`, other.key), 404, 'not_found');
    expect((await platform.api.get('/calls', other.key)).body.meta.pagination.total).toBe(0);
    expectError(await platform.api.get('/calls/not-a-uuid', key), 404, 'not_found');
  });

  test('calls:read reads, calls:write places; without them 403; without a key 401', async () => {
    const { key, id, number, assistantId } = await ready();
    const created = await place(key, { assistant_id: assistantId, from: number.number, to: destination });
    const reader = await platform.key(id, ['calls:read']);
    expect((await platform.api.get(`/calls/${created.body.data.id}`, reader)).status).toBe(200);
    expectError(await place(reader, { assistant_id: assistantId, from: number.number, to: destination }), 403, 'forbidden');
    const stranger = await platform.key(id, ['assistants:read']);
    expectError(await platform.api.get('/calls', stranger), 403, 'forbidden');
    expectError(await platform.api.get('/calls'), 401, 'unauthorized');
  });
});

describe('MCP', () => {
  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${platform.running.url}/mcp?toolsets=calls`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    return client;
  }
  type ToolAnswer = { isError?: boolean; structuredContent?: any; content: { type: string; text?: string }[] };

  test('make_call, list_calls and get_call answer what REST answers, with the same errors', async () => {
    const { key, number, assistantId } = await ready();
    const client = await connect(key);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['get_call', 'get_email_history_item', 'list_calls', 'list_history', 'make_call']);
      // A busy destination: the call ends at once, so both reads see it as it stays.
      const busy = '+15005550006';
      const made = (await client.callTool({ name: 'make_call', arguments: { assistant_id: assistantId, from: number.number, to: busy } })) as ToolAnswer;
      expect(made.isError).toBeFalsy();
      const id = made.structuredContent.data.id as string;
      expect(made.structuredContent.data).toMatchObject({ status: 'queued', to: busy });
      const ended = await eventually(async () => {
        const read = await platform.api.get(`/calls/${id}`, key);
        return read.body.data.status === 'busy' ? read.body.data : undefined;
      });
      const listed = (await client.callTool({ name: 'list_calls', arguments: {} })) as ToolAnswer;
      expect(listed.structuredContent.data.map((call: { id: string }) => call.id)).toEqual([id]);
      const got = (await client.callTool({ name: 'get_call', arguments: { id } })) as ToolAnswer;
      expect(got.structuredContent.data).toEqual(ended);
      const refused = (await client.callTool({ name: 'make_call', arguments: { assistant_id: assistantId, from: '+14155550199', to: destination } })) as ToolAnswer;
      expect(refused.isError).toBe(true);
      expect(JSON.parse(refused.content[0]!.text!).error.code).toBe('not_found');
    } finally {
      await client.close();
    }
  });
});
