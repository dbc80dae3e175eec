// Assistants API through the gateway: the whole configuration created, read, searched, changed
// and deleted; defaults, validation, secrets masked and kept by the mask, idempotent creates.
import { expectError, fieldsOf } from './support/api-client.js';
import { assistantSecrets, fullAssistant } from './support/assistants.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { mask } from './support/tools.js';

let platform: TestPlatform;
let key: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  key = (await platform.workspace({ plan: 'pro' })).key;
});
afterAll(() => platform.close());

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /assistants', () => {
  test('creates an assistant with the whole configuration: 201, every field returned, secrets masked', async () => {
    const input = fullAssistant('Front desk');
    const response = await platform.api.post('/assistants', key, input);
    expect(response.status).toBe(201);
    expect(Object.keys(response.body)).toEqual(['data']);
    expect(response.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      ...input,
      builtin_tools: [{ ...input.builtin_tools[0], sip_headers: { 'X-Account': mask } }, input.builtin_tools[1]],
      tool_ids: [],
      knowledge_base_ids: [],
      revision: 1,
      created_at: expect.stringMatching(iso),
      updated_at: expect.stringMatching(iso),
    });
    expect(response.text).not.toContain(assistantSecrets.sipHeader);
    const read = await platform.api.get(`/assistants/${response.body.data.id}`, key);
    expect(read.body).toEqual(response.body);
  });

  test('only name is required; every other field shows its default', async () => {
    const response = await platform.api.post('/assistants', key, { name: 'Minimal' });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      name: 'Minimal',
      description: '',
      first_message: '',
      first_message_mode: 'assistant_speaks_first',
      system_prompt: '',
      language: 'en-US',
      model: { provider: 'openai', model: 'gpt-4o-mini', temperature: 0.7, max_tokens: 1024 },
      voice: { provider: 'openai', voice_id: 'alloy', speed: 1 },
      transcriber: { provider: 'deepgram', model: 'nova-3' },
      tool_ids: [],
      builtin_tools: [],
      knowledge_base_ids: [],
      variables: [],
      end_call: { max_duration_seconds: 1800, silence_timeout_seconds: 30, phrases: [] },
      voicemail: { detection_enabled: false, action: 'hang_up' },
      recording_enabled: true,
      background_sound: 'off',
      analysis_plan: {},
      metadata: {},
    });
  });

  test('a malformed body is 400 naming each bad field, and nothing is created', async () => {
    const before = (await platform.api.get('/assistants', key)).body.meta.pagination.total;
    const cases: [unknown, string[]][] = [
      [{}, ['name']],
      [{ name: 'x', model: { provider: 'openai' } }, ['model.model']],
      [{ name: 'x', model: { provider: 'openai', model: 'gpt-4o-mini', temperature: 3 } }, ['model.temperature']],
      [{ name: 'x', voicemail: { action: 'leave_message' } }, ['voicemail.message']],
      [{ name: 'x', builtin_tools: [{ type: 'teleport' }] }, ['builtin_tools.0.type']],
      [{ name: 'x', builtin_tools: [{ type: 'call_transfer', destination: 'nowhere' }] }, ['builtin_tools.0.destination']],
      [{ name: 'x', tool_ids: ['not-a-uuid'] }, ['tool_ids.0']],
      [{ name: 'x', analysis_plan: { structured_data_schema: { type: 'string' } } }, ['analysis_plan.structured_data_schema']],
      [{ name: 'x', variables: [{ name: 'a' }, { name: 'a' }] }, ['variables']],
      [{ name: 'x', language: 'english' }, ['language']],
      [{ name: 'x', colour: 'blue' }, ['colour']],
    ];
    for (const [body, fields] of cases) {
      const response = await platform.api.post('/assistants', key, body);
      expectError(response, 400, 'invalid_request');
      expect(fieldsOf(response)).toEqual(fields);
    }
    expect((await platform.api.get('/assistants', key)).body.meta.pagination.total).toBe(before);
  });

  test('an Idempotency-Key replays the first answer; another body under it is 409', async () => {
    const headers = { 'idempotency-key': `create-${Date.now()}` };
    const body = { name: 'Idempotent' };
    const first = await platform.api.post('/assistants', key, body, { headers });
    const again = await platform.api.post('/assistants', key, body, { headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expectError(await platform.api.post('/assistants', key, { name: 'Other' }, { headers }), 409, 'conflict');
    const listed = await platform.api.get('/assistants?q=idempotent', key);
    expect(listed.body.meta.pagination.total).toBe(1);
  });
});

describe('PATCH /assistants/{id}', () => {
  test('top-level fields replace the stored ones; the rest stays; revision grows', async () => {
    const created = (await platform.api.post('/assistants', key, fullAssistant())).body.data;
    const response = await platform.api.patch(`/assistants/${created.id}`, key, {
      model: { provider: 'anthropic', model: 'claude-haiku-4-5' },
      recording_enabled: true,
      expected_revision: 1,
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      ...created,
      model: { provider: 'anthropic', model: 'claude-haiku-4-5', temperature: 0.7, max_tokens: 1024 },
      recording_enabled: true,
      revision: 2,
      updated_at: expect.stringMatching(iso),
    });
  });

  test('the mask keeps a builtin tool’s stored secret; a new destination needs the secret again', async () => {
    const input = fullAssistant();
    const created = (await platform.api.post('/assistants', key, input)).body.data;
    // The masked configuration sent back as read keeps everything.
    const kept = await platform.api.patch(`/assistants/${created.id}`, key, { builtin_tools: created.builtin_tools, expected_revision: 1 });
    expect(kept.status).toBe(200);
    expect(kept.body.data.builtin_tools).toEqual(created.builtin_tools);
    const moved = [{ ...created.builtin_tools[0], destination: '+14155550999' }];
    const refused = await platform.api.patch(`/assistants/${created.id}`, key, { builtin_tools: moved, expected_revision: 2 });
    expectError(refused, 400, 'invalid_request');
    expect(fieldsOf(refused)).toEqual(['builtin_tools.0.sip_headers.X-Account']);
    const fresh = await platform.api.post('/assistants', key, { name: 'masked', builtin_tools: [{ type: 'call_transfer', destination: '+14155550123', sip_headers: { 'X-A': mask } }] });
    expectError(fresh, 400, 'invalid_request');
    expect(fieldsOf(fresh)).toEqual(['builtin_tools.0.sip_headers.X-A']);
  });

  test('a stale expected_revision is 409 revision_conflict and changes nothing; it is required', async () => {
    const created = (await platform.api.post('/assistants', key, { name: 'Stale' })).body.data;
    await platform.api.patch(`/assistants/${created.id}`, key, { name: 'First', expected_revision: 1 });
    expectError(await platform.api.patch(`/assistants/${created.id}`, key, { name: 'Second', expected_revision: 1 }), 409, 'revision_conflict');
    const missing = await platform.api.patch(`/assistants/${created.id}`, key, { name: 'Third' });
    expectError(missing, 400, 'invalid_request');
    expect(fieldsOf(missing)).toEqual(['expected_revision']);
    expect((await platform.api.get(`/assistants/${created.id}`, key)).body.data).toMatchObject({ name: 'First', revision: 2 });
  });

  test('of 50 concurrent PATCHes at one revision exactly one wins; the others are 409', async () => {
    const created = (await platform.api.post('/assistants', key, { name: 'Contended' })).body.data;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => platform.api.patch(`/assistants/${created.id}`, key, { description: `writer ${i}`, expected_revision: 1 })),
    );
    const winners = answers.filter((answer) => answer.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of answers.filter((answer) => answer.status !== 200)) expectError(loser, 409, 'revision_conflict');
    const stored = (await platform.api.get(`/assistants/${created.id}`, key)).body.data;
    expect(stored).toMatchObject({ revision: 2, description: winners[0]!.body.data.description });
    expect((await platform.api.get(`/assistants/${created.id}/versions`, key)).body.meta.pagination.total).toBe(2);
  });

  test('an unknown or malformed id is 404', async () => {
    expectError(await platform.api.patch('/assistants/6f1c1d7e-9a5b-4c1e-8f00-123456789abc', key, { name: 'x', expected_revision: 1 }), 404, 'not_found');
    expectError(await platform.api.get('/assistants/not-a-uuid', key), 404, 'not_found');
  });
});

describe('GET /assistants', () => {
  test('newest first, paginated with the total, searchable by name ignoring case', async () => {
    const own = (await platform.workspace({ plan: 'pro' })).key;
    const names = ['Sales line', 'Support line', 'Billing desk', '100% agent'];
    const ids: string[] = [];
    for (const name of names) ids.push((await platform.api.post('/assistants', own, { name })).body.data.id);
    const all = await platform.api.get('/assistants', own);
    expect(all.body.data.map((a: { id: string }) => a.id)).toEqual([...ids].reverse());
    expect(all.body.meta.pagination).toEqual({ limit: 50, offset: 0, total: 4 });
    const page = await platform.api.get('/assistants?limit=2&offset=1', own);
    expect(page.body.data.map((a: { id: string }) => a.id)).toEqual([ids[2], ids[1]]);
    const lines = await platform.api.get('/assistants?q=LINE', own);
    expect(lines.body.data.map((a: { name: string }) => a.name)).toEqual(['Support line', 'Sales line']);
    expect((await platform.api.get('/assistants?q=%25', own)).body.data.map((a: { name: string }) => a.name)).toEqual(['100% agent']);
    expectError(await platform.api.get('/assistants?limit=0', own), 400, 'invalid_request');
  });
});

describe('DELETE /assistants/{id}', () => {
  test('deletes once with its history: {id, deleted: true}, then 404', async () => {
    const created = (await platform.api.post('/assistants', key, { name: 'Doomed' })).body.data;
    const response = await platform.api.delete(`/assistants/${created.id}`, key);
    expect(response.body).toEqual({ data: { id: created.id, deleted: true } });
    expectError(await platform.api.get(`/assistants/${created.id}`, key), 404, 'not_found');
    expectError(await platform.api.get(`/assistants/${created.id}/versions`, key), 404, 'not_found');
    expectError(await platform.api.delete(`/assistants/${created.id}`, key), 404, 'not_found');
  });
});

test('no answer ever carried a secret', () => {
  expect(platform.api.transcript.join('\n')).not.toContain(assistantSecrets.sipHeader);
});
