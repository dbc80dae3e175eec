// An assistant's configuration history and the catalog through the gateway: a version per write
// with who made it and what changed, restores, and catalog validation per plan.
import { expectError, fieldsOf } from './support/api-client.js';
import { fullAssistant } from './support/assistants.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
let pro: { id: string; key: string };
let starter: { id: string; key: string };

beforeAll(async () => {
  platform = await startTestPlatform();
  pro = await platform.workspace({ plan: 'pro' });
  starter = await platform.workspace({ plan: 'starter' });
});
afterAll(() => platform.close());

describe('versions', () => {
  test('every create and update writes a version: author, time and the fields that changed', async () => {
    const created = (await platform.api.post('/assistants', pro.key, fullAssistant('Versioned'))).body.data;
    await platform.api.patch(`/assistants/${created.id}`, pro.key, {
      model: { ...created.model, temperature: 0.9 },
      first_message: 'Hi!',
      expected_revision: 1,
    });
    const list = await platform.api.get(`/assistants/${created.id}/versions`, pro.key);
    expect(list.status).toBe(200);
    expect(list.body.meta.pagination).toEqual({ limit: 50, offset: 0, total: 2 });
    const [second, first] = list.body.data;
    expect(second).toEqual({
      number: 2,
      created_by: { type: 'service_account', id: expect.any(String), name: 'e2e' },
      created_at: expect.any(String),
      changed_fields: ['first_message', 'model.temperature'],
      restored_from: null,
    });
    expect(first.number).toBe(1);
    expect(first.changed_fields).toEqual(expect.arrayContaining(['name', 'model', 'voice', 'builtin_tools']));

    const one = await platform.api.get(`/assistants/${created.id}/versions/1`, pro.key);
    expect(one.body.data).toEqual({ ...first, config: expect.objectContaining({ name: 'Versioned', first_message: created.first_message }) });
    expect(one.body.data.config.builtin_tools).toEqual(created.builtin_tools);
    expect(Object.keys(one.body.data.config)).not.toContain('id');
  });

  test('a restore writes a new version equal to the old one, and keeps the secrets it held', async () => {
    const created = (await platform.api.post('/assistants', pro.key, fullAssistant('Restorable'))).body.data;
    await platform.api.patch(`/assistants/${created.id}`, pro.key, { name: 'Renamed', builtin_tools: [], expected_revision: 1 });
    const restored = await platform.api.post(`/assistants/${created.id}/versions/1/restore`, pro.key, {});
    expect(restored.status).toBe(200);
    expect(restored.body.data).toEqual({ ...created, revision: 3, updated_at: expect.any(String) });
    const third = (await platform.api.get(`/assistants/${created.id}/versions/3`, pro.key)).body.data;
    expect(third).toMatchObject({ number: 3, restored_from: 1, changed_fields: ['name', 'builtin_tools'] });
    // The restored secret is the stored one: the mask keeps it.
    const kept = await platform.api.patch(`/assistants/${created.id}`, pro.key, { builtin_tools: created.builtin_tools, expected_revision: 3 });
    expect(kept.status).toBe(200);
    expectError(await platform.api.post(`/assistants/${created.id}/versions/1/restore`, pro.key, { expected_revision: 1 }), 409, 'revision_conflict');
  });

  test('unknown versions and malformed numbers are 404; pagination applies', async () => {
    const created = (await platform.api.post('/assistants', pro.key, { name: 'Few versions' })).body.data;
    for (const n of ['2', '0', '-1', 'abc', '1.5', '99999999999']) {
      expectError(await platform.api.get(`/assistants/${created.id}/versions/${n}`, pro.key), 404, 'not_found');
    }
    expectError(await platform.api.post(`/assistants/${created.id}/versions/7/restore`, pro.key, {}), 404, 'not_found');
    expectError(await platform.api.get('/assistants/6f1c1d7e-9a5b-4c1e-8f00-123456789abc/versions', pro.key), 404, 'not_found');
    await platform.api.patch(`/assistants/${created.id}`, pro.key, { description: 'b', expected_revision: 1 });
    await platform.api.patch(`/assistants/${created.id}`, pro.key, { description: 'c', expected_revision: 2 });
    const page = await platform.api.get(`/assistants/${created.id}/versions?limit=1&offset=1`, pro.key);
    expect(page.body.data.map((v: { number: number }) => v.number)).toEqual([2]);
    expect(page.body.meta.pagination.total).toBe(3);
  });
});

describe('catalog', () => {
  test('GET /catalog/models lists models and transcribers with their plans, filtered', async () => {
    const all = await platform.api.get('/catalog/models?limit=200', pro.key);
    expect(all.status).toBe(200);
    expect(all.body.meta).toEqual({ pagination: { limit: 200, offset: 0, total: all.body.data.length }, catalog_version: expect.any(String) });
    expect(all.body.data).toContainEqual({ kind: 'llm', provider: 'openai', id: 'gpt-4o', name: 'GPT-4o', languages: ['*'], plans: ['pro', 'enterprise'] });
    const transcribers = await platform.api.get('/catalog/models?kind=transcriber&provider=deepgram&language=ko', pro.key);
    expect(transcribers.body.data.map((m: { id: string }) => m.id)).toEqual(['nova-2']);
    expectError(await platform.api.get('/catalog/models?kind=tts', pro.key), 400, 'invalid_request');
  });

  test('GET /voices filters by provider and language; it needs voices:read', async () => {
    const german = await platform.api.get('/voices?language=de-DE&provider=azure', pro.key);
    expect(german.body.data).toEqual([{ provider: 'azure', id: 'de-DE-KatjaNeural', name: 'Katja', languages: ['de-DE'], gender: 'female', plans: ['starter', 'pro', 'enterprise'] }]);
    const english = await platform.api.get('/voices?language=en', pro.key);
    expect(english.body.data.map((v: { id: string }) => v.id)).toEqual(expect.arrayContaining(['alloy', 'en-US-JennyNeural', 'en-GB-RyanNeural']));
    expect(english.body.data.map((v: { id: string }) => v.id)).not.toContain('de-DE-KatjaNeural');
    const voicesOnly = await platform.key(pro.id, ['voices:read']);
    expect((await platform.api.get('/voices', voicesOnly)).status).toBe(200);
    expectError(await platform.api.get('/catalog/models', voicesOnly), 403, 'forbidden');
    expectError(await platform.api.get('/voices', await platform.key(pro.id, ['assistants:read'])), 403, 'forbidden');
  });

  test('an unknown model, transcriber or voice is 400 naming the field; one outside the plan is 403', async () => {
    const unknown = await platform.api.post('/assistants', pro.key, {
      name: 'x',
      model: { provider: 'openai', model: 'gpt-9' },
      voice: { provider: 'azure', voice_id: 'nobody' },
      transcriber: { provider: 'deepgram', model: 'nova-0' },
    });
    expectError(unknown, 400, 'invalid_request');
    expect(fieldsOf(unknown)).toEqual(['model.model', 'transcriber.model', 'voice.voice_id']);
    const wrongLanguage = await platform.api.post('/assistants', pro.key, { name: 'x', language: 'fr-FR', voice: { provider: 'azure', voice_id: 'de-DE-KatjaNeural' } });
    expect(fieldsOf(wrongLanguage)).toEqual(['voice.voice_id']);

    const premium = { name: 'Premium', model: { provider: 'openai', model: 'gpt-4o' }, voice: { provider: 'elevenlabs', voice_id: 'rachel' } };
    const refused = await platform.api.post('/assistants', starter.key, premium);
    expectError(refused, 403, 'forbidden');
    expect(refused.body.error.message).toContain('model.model');
    expect((await platform.api.post('/assistants', pro.key, premium)).status).toBe(201);
    const own = (await platform.api.post('/assistants', starter.key, { name: 'Starter' })).body.data;
    expectError(await platform.api.patch(`/assistants/${own.id}`, starter.key, { voice: premium.voice, expected_revision: 1 }), 403, 'forbidden');
    expect((await platform.api.get(`/assistants/${own.id}`, starter.key)).body.data.revision).toBe(1);
  });
});
