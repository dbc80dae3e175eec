// Concurrency, idempotency and secrets: one winner among concurrent writers, retries that do
// nothing twice, secrets encrypted at rest and never in any response.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectError, fieldsOf } from './support/api-client.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { apiTool, builtinTool, mask, mcpTool, secrets } from './support/tools.js';

let platform: TestPlatform;
let key: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  key = (await platform.workspace()).key;
});
afterAll(async () => {
  // Every response this suite received, headers included, is free of every stored secret.
  for (const secret of Object.values(secrets)) {
    expect(platform.api.transcript.filter((text) => text.includes(secret))).toEqual([]);
  }
  await platform.close();
});

describe('concurrent PATCHes', () => {
  test('20 PATCHes at one revision: exactly one wins, 19 get revision_conflict', async () => {
    const tool = (await platform.api.post('/tools', key, apiTool())).body.data;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => platform.api.patch(`/tools/${tool.id}`, key, { description: `writer ${i}`, expected_revision: 1 })),
    );
    const winners = responses.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    const losers = responses.filter((r) => r.status === 409);
    expect(losers).toHaveLength(19);
    losers.forEach((r) => expectError(r, 409, 'revision_conflict'));
    const stored = (await platform.api.get(`/tools/${tool.id}`, key)).body.data;
    expect(stored.revision).toBe(2);
    expect(stored.description).toBe(winners[0]!.body.data.description);
  });

  test('writers that re-read and retry all land, each on its own revision', async () => {
    const tool = (await platform.api.post('/tools', key, apiTool())).body.data;
    const writer = async (i: number) => {
      for (;;) {
        const current = (await platform.api.get(`/tools/${tool.id}`, key)).body.data;
        const response = await platform.api.patch(`/tools/${tool.id}`, key, { description: `${current.description}+${i}`, expected_revision: current.revision });
        if (response.status === 200) return;
        expect(response.body.error.code).toBe('revision_conflict');
      }
    };
    await Promise.all(Array.from({ length: 5 }, (_, i) => writer(i)));
    const stored = (await platform.api.get(`/tools/${tool.id}`, key)).body.data;
    expect(stored.revision).toBe(6);
    expect(stored.description.split('+').slice(1).sort()).toEqual(['0', '1', '2', '3', '4']);
  });

  test('concurrent creates with one name: one 201, the rest 409 conflict', async () => {
    const responses = await Promise.all(Array.from({ length: 10 }, () => platform.api.post('/tools', key, apiTool('racing_name'))));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    responses.filter((r) => r.status !== 201).forEach((r) => expectError(r, 409, 'conflict'));
  });
});

describe('Idempotency-Key on POST /tools', () => {
  test('a retry with the same key and body returns the first response and creates nothing', async () => {
    const body = apiTool();
    const headers = { 'idempotency-key': 'order-tool-create-1' };
    const first = await platform.api.post('/tools', key, body, { headers });
    const retry = await platform.api.post('/tools', key, body, { headers });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const list = await platform.api.get('/tools', key);
    expect(list.body.data.filter((t: { name: string }) => t.name === body.name)).toHaveLength(1);
  });

  test('the same key with another body is 409 conflict', async () => {
    const headers = { 'idempotency-key': 'order-tool-create-2' };
    await platform.api.post('/tools', key, apiTool(), { headers });
    expectError(await platform.api.post('/tools', key, apiTool(), { headers }), 409, 'conflict');
  });

  test('concurrent retries with one key create one tool', async () => {
    const body = apiTool();
    const headers = { 'idempotency-key': 'order-tool-create-3' };
    const responses = await Promise.all(Array.from({ length: 8 }, () => platform.api.post('/tools', key, body, { headers })));
    expect(new Set(responses.map((r) => r.body.data?.id))).toEqual(new Set([responses[0]!.body.data.id]));
    expect(responses.every((r) => r.status === 201)).toBe(true);
  });

  test('keys are per workspace', async () => {
    const other = await platform.workspace();
    const headers = { 'idempotency-key': 'shared-key' };
    const mine = await platform.api.post('/tools', key, apiTool(), { headers });
    const theirs = await platform.api.post('/tools', other.key, apiTool(), { headers });
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
  });

  test('a key over 255 characters is 400', async () => {
    const response = await platform.api.post('/tools', key, apiTool(), { headers: { 'idempotency-key': 'k'.repeat(256) } });
    expectError(response, 400, 'invalid_request');
    expect(fieldsOf(response)).toEqual(['Idempotency-Key']);
  });
});

describe('secrets', () => {
  test('every secret is masked as three bullets in create, read, list and update answers', async () => {
    const created = await Promise.all([apiTool(), mcpTool(), builtinTool()].map((t) => platform.api.post('/tools', key, t)));
    const [api, mcp, builtin] = created.map((r) => r.body.data);
    expect(api.config.headers).toEqual({ 'X-Api-Key': mask });
    expect(mcp.config.auth_value_encrypted).toBe(mask);
    expect(builtin.config.sip_headers).toEqual({ 'X-Account': mask });
    const listed = (await platform.api.get('/tools', key)).body.data;
    expect(listed.find((t: { id: string }) => t.id === mcp.id).config.auth_value_encrypted).toBe(mask);
    const updated = await platform.api.patch(`/tools/${api.id}`, key, {
      config: { url: 'https://orders.example.com/x', headers: { 'X-Api-Key': mask, 'X-Second': secrets.apiHeader2 } },
      expected_revision: 1,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.config.headers).toEqual({ 'X-Api-Key': mask, 'X-Second': mask });
  });

  test('the mask where nothing is stored is 400: on create, and on a new place in an update', async () => {
    const onCreate = await platform.api.post('/tools', key, { ...mcpTool(), config: { ...mcpTool().config, auth_value_encrypted: mask } });
    expectError(onCreate, 400, 'invalid_request');
    expect(fieldsOf(onCreate)).toEqual(['config.auth_value_encrypted']);
    const tool = (await platform.api.post('/tools', key, apiTool())).body.data;
    const newPlace = await platform.api.patch(`/tools/${tool.id}`, key, {
      config: { url: 'https://orders.example.com/x', headers: { 'X-Other': mask } },
      expected_revision: 1,
    });
    expectError(newPlace, 400, 'invalid_request');
    expect(fieldsOf(newPlace)).toEqual(['config.headers.X-Other']);
  });

  test('the mask keeps a secret only while its destination stays: a new origin needs the secret again', async () => {
    const api = (await platform.api.post('/tools', key, apiTool())).body.data;
    const elsewhere = await platform.api.patch(`/tools/${api.id}`, key, {
      config: { url: 'https://attacker.example.net/collect', headers: { 'X-Api-Key': mask } },
      expected_revision: 1,
    });
    expectError(elsewhere, 400, 'invalid_request');
    expect(elsewhere.body.error.details).toEqual([{ field: 'config.headers.X-Api-Key', issue: expect.stringContaining('destination changed') }]);
    const samePlace = await platform.api.patch(`/tools/${api.id}`, key, {
      config: { url: 'https://orders.example.com/v2/orders', headers: { 'X-Api-Key': mask } },
      expected_revision: 1,
    });
    expect(samePlace.status).toBe(200);
    const resent = await platform.api.patch(`/tools/${api.id}`, key, {
      config: { url: 'https://other.example.net/hook', headers: { 'X-Api-Key': secrets.apiHeader2 } },
      expected_revision: 2,
    });
    expect(resent.status).toBe(200);

    const mcp = (await platform.api.post('/tools', key, mcpTool())).body.data;
    const mcpElsewhere = await platform.api.patch(`/tools/${mcp.id}`, key, {
      config: { ...mcpTool().config, url: 'https://attacker.example.net/mcp', auth_value_encrypted: mask },
      expected_revision: 1,
    });
    expect(fieldsOf(mcpElsewhere)).toEqual(['config.auth_value_encrypted']);

    const transfer = (await platform.api.post('/tools', key, builtinTool())).body.data;
    const rerouted = await platform.api.patch(`/tools/${transfer.id}`, key, {
      config: { type: 'call_transfer', destination: '+14155550199', sip_headers: { 'X-Account': mask } },
      expected_revision: 1,
    });
    expect(fieldsOf(rerouted)).toEqual(['config.sip_headers.X-Account']);
  });

  test('secrets are encrypted at rest: no store file holds them in plain text', async () => {
    await platform.api.post('/tools', key, apiTool());
    const files = readdirSync(platform.dataDir).filter((f) => f.startsWith('tools.sqlite'));
    expect(files.length).toBeGreaterThan(0);
    const stored = files.map((f) => readFileSync(join(platform.dataDir, f)).toString('latin1')).join('');
    expect(stored).toContain('enc:v1:');
    for (const secret of Object.values(secrets)) expect(stored).not.toContain(secret);
  });
});
