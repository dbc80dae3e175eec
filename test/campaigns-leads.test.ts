// Leads and segments through the gateway: one lead at a time (normalised to E.164; invalid, suppressed
// and repeated numbers refused), a bulk import with every row outcome (created, duplicate within the
// campaign and within the import, invalid_number, suppressed) and its limits (10,001 rows and malformed
// rows are 400, nothing added), listing by campaign, status and segment, removal (and the deprecated
// legacy alias), segments with revision-checked updates, a campaign targeting a segment, other
// workspaces (404) and scopes (403).
import { expectError, fieldsOf } from './support/api-client.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { buySmsNumber } from './support/telephony.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ VOICE_NUMBER_MONTHLY_CREDITS: '0' });
});
afterAll(() => platform.close());

async function ready() {
  const workspace = await platform.workspace({ plan: 'pro' });
  const number = await buySmsNumber(platform.api, workspace.key, { enable: false });
  const assistant = await platform.api.post('/assistants', workspace.key, { name: 'Caller' });
  return { ...workspace, number, assistantId: assistant.body.data.id as string };
}

type Ready = Awaited<ReturnType<typeof ready>>;

async function createCampaign(ws: Ready, extra: Record<string, unknown> = {}) {
  const created = await platform.api.post('/campaigns', ws.key, { name: 'Leads test', assistant_id: ws.assistantId, from_number_ids: [ws.number.id], ...extra });
  expect(created.status).toBe(201);
  return created.body.data as { id: string; revision: number };
}

const suppress = async (ws: Ready, number: string) => expect((await platform.api.post('/suppression', ws.key, { number })).status).toBe(201);
const leadsOf = async (ws: Ready, query = '') => (await platform.api.get(`/leads?limit=200${query}`, ws.key)).body;

describe('one lead at a time', () => {
  test('a lead is normalised to E.164 and starts pending; bad, suppressed and repeated numbers are refused and add nothing', async () => {
    const ws = await ready();
    const campaign = await createCampaign(ws);
    const path = `/campaigns/${campaign.id}/leads`;
    const added = await platform.api.post(path, ws.key, { phone: '+1 (415) 555-0150', name: 'Ada', variables: { plan: 'gold', visits: 2, vip: true }, time_zone: 'America/Los_Angeles' });
    expect(added.status).toBe(201);
    expect(added.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      campaign_id: campaign.id,
      phone: '+14155550150',
      name: 'Ada',
      variables: { plan: 'gold', visits: 2, vip: true },
      time_zone: 'America/Los_Angeles',
      time_zone_source: 'given',
      status: 'pending',
      attempts: 0,
      call_ids: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    expectError(await platform.api.post(path, ws.key, { phone: '+14155550150' }), 409, 'conflict');
    await suppress(ws, '+14155550151');
    expectError(await platform.api.post(path, ws.key, { phone: '+1 415 555 0151' }), 403, 'destination_forbidden');
    for (const [body, field] of [
      [{ phone: '555-0100' }, 'phone'],
      [{ phone: '+14155550152', time_zone: 'Atlantis/Lost' }, 'time_zone'],
      [{ phone: '+14155550152', variables: { 'bad key': 1 } }, 'variables.bad key'],
      [{ phone: '+14155550152', variables: { nested: { a: 1 } } }, 'variables.nested'],
      [{ phone: '+14155550152', status: 'completed' }, 'status'],
      [{ name: 'No phone' }, 'phone'],
    ] as const) {
      const refused = await platform.api.post(path, ws.key, body);
      expectError(refused, 400, 'invalid_request');
      expect(fieldsOf(refused)).toContain(field);
    }
    expect((await leadsOf(ws)).meta.pagination.total).toBe(1);

    // Without a zone, the number's prefix gives one when it names a single zone (415: California);
    // a prefix of several zones (+1 500, personal numbers across North America) gives none, and the
    // campaign window's zone applies.
    const derived = await platform.api.post(path, ws.key, { phone: '+14155550160' });
    expect(derived.body.data).toMatchObject({ time_zone: 'America/Los_Angeles', time_zone_source: 'derived' });
    const undetermined = await platform.api.post(path, ws.key, { phone: '+15005550160' });
    expect(undetermined.body.data).toMatchObject({ time_zone: null, time_zone_source: null });
  });
});

describe('bulk import', () => {
  test('every row gets its outcome, in order; the campaign counts what was created', async () => {
    const ws = await ready();
    const campaign = await createCampaign(ws);
    await platform.api.post(`/campaigns/${campaign.id}/leads`, ws.key, { phone: '+14155550160' });
    await suppress(ws, '+14155550161');
    const rows = [
      { phone: '+1 415 555 0162', name: 'New' },
      { phone: '+14155550160' }, // already in the campaign
      { phone: 'not a number' },
      { phone: '+14155550161' }, // suppressed
      { phone: '+14155550163', variables: { source: 'csv' } },
      { phone: '+1-415-555-0163' }, // the row before, written differently
      { phone: '+999' },
    ];
    const imported = await platform.api.post(`/campaigns/${campaign.id}/leads/bulk`, ws.key, { leads: rows });
    expect(imported.status).toBe(200);
    const { summary, results } = imported.body.data;
    expect(summary).toEqual({ created: 2, duplicate: 2, invalid_number: 2, suppressed: 1 });
    expect(results.map((row: { index: number; outcome: string; phone: string }) => [row.index, row.outcome, row.phone])).toEqual([
      [0, 'created', '+14155550162'],
      [1, 'duplicate', '+14155550160'],
      [2, 'invalid_number', 'not a number'],
      [3, 'suppressed', '+14155550161'],
      [4, 'created', '+14155550163'],
      [5, 'duplicate', '+14155550163'],
      [6, 'invalid_number', '+999'],
    ]);
    expect(results[5].lead_id).toBe(results[4].lead_id);
    expect(results[2].lead_id).toBeNull();
    const leads = await leadsOf(ws, `&campaign_id=${campaign.id}`);
    expect(leads.meta.pagination.total).toBe(3);
    expect((await platform.api.get(`/campaigns/${campaign.id}`, ws.key)).body.data.progress.leads).toMatchObject({ total: 3, pending: 3 });
  });

  test('10,000 rows are taken in one request; 10,001 rows and malformed rows are 400 and add nothing', async () => {
    const ws = await ready();
    const campaign = await createCampaign(ws);
    const path = `/campaigns/${campaign.id}/leads/bulk`;
    const phone = (i: number) => `+1415${String(2_000_000 + i)}`;
    const tooMany = await platform.api.post(path, ws.key, { leads: Array.from({ length: 10_001 }, (_, i) => ({ phone: phone(i) })) });
    expectError(tooMany, 400, 'invalid_request');
    expect(fieldsOf(tooMany)).toEqual(['leads']);
    for (const leads of [[], [{ phone: '+14155550170' }, { phone: '+14155550171', colour: 'red' }], [{ phone: '+14155550170', time_zone: 'Nowhere/Here' }], [{ phone: 12 }]]) {
      expectError(await platform.api.post(path, ws.key, { leads }), 400, 'invalid_request');
    }
    expectError(await platform.api.post(path, ws.key, { rows: [] }), 400, 'invalid_request');
    expect((await leadsOf(ws)).meta.pagination.total).toBe(0);

    const full = await platform.api.post(path, ws.key, { leads: Array.from({ length: 10_000 }, (_, i) => ({ phone: phone(i) })) });
    expect(full.status).toBe(200);
    expect(full.body.data.summary).toEqual({ created: 10_000, duplicate: 0, invalid_number: 0, suppressed: 0 });
    expect((await platform.api.get(`/campaigns/${campaign.id}`, ws.key)).body.data.progress.leads.total).toBe(10_000);
  });

  test('concurrent imports of the same rows create each lead once', async () => {
    const ws = await ready();
    const campaign = await createCampaign(ws);
    const leads = Array.from({ length: 50 }, (_, i) => ({ phone: `+1415555${String(1000 + i)}` }));
    const answers = await Promise.all([1, 2, 3].map(() => platform.api.post(`/campaigns/${campaign.id}/leads/bulk`, ws.key, { leads })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const created = answers.reduce((sum, answer) => sum + (answer.body.data.summary.created as number), 0);
    expect(created).toBe(50);
    expect((await leadsOf(ws)).meta.pagination.total).toBe(50);
  });
});

describe('listing and removing', () => {
  test('leads list by campaign and status; removal keeps the lead as removed; the legacy alias does the same', async () => {
    const ws = await ready();
    const first = await createCampaign(ws);
    const second = await createCampaign(ws);
    const a = (await platform.api.post(`/campaigns/${first.id}/leads`, ws.key, { phone: '+14155550180' })).body.data;
    const b = (await platform.api.post(`/campaigns/${first.id}/leads`, ws.key, { phone: '+14155550181' })).body.data;
    const c = (await platform.api.post(`/campaigns/${second.id}/leads`, ws.key, { phone: '+14155550180' })).body.data;
    expect((await leadsOf(ws)).data.map((lead: { id: string }) => lead.id)).toEqual([c.id, b.id, a.id]);
    expect((await platform.api.get(`/campaigns/${first.id}/leads`, ws.key)).body.data.map((lead: { id: string }) => lead.id)).toEqual([b.id, a.id]);

    // The lead of another campaign is not found through this one.
    expectError(await platform.api.delete(`/campaigns/${first.id}/leads/${c.id}`, ws.key), 404, 'not_found');
    expect((await platform.api.delete(`/campaigns/${first.id}/leads/${a.id}`, ws.key)).body).toEqual({ data: { id: a.id, deleted: true } });
    expect((await platform.api.delete(`/campaigns/${first.id}/leads/${a.id}`, ws.key)).status).toBe(200);
    expect((await platform.api.delete(`/leads/${b.id}`, ws.key)).body).toEqual({ data: { id: b.id, deleted: true } });
    expect((await leadsOf(ws, '&status=removed')).data.map((lead: { id: string }) => lead.id).sort()).toEqual([a.id, b.id].sort());
    expect((await platform.api.get(`/campaigns/${first.id}/leads?status=pending`, ws.key)).body.meta.pagination.total).toBe(0);
    expect((await platform.api.get(`/campaigns/${first.id}`, ws.key)).body.data.progress.leads).toMatchObject({ total: 2, removed: 2, pending: 0 });
    expectError(await platform.api.delete('/leads/not-a-uuid', ws.key), 404, 'not_found');
    expectError(await platform.api.get('/leads?status=asleep', ws.key), 400, 'invalid_request');
    expectError(await platform.api.get('/leads?campaign_id=2d1f6a0e-3c1b-4b8e-9c1a-6f0e2b7a9d11', ws.key), 404, 'not_found');
    expectError(await platform.api.get('/leads?limit=201', ws.key), 400, 'invalid_request');
  });

  test('the legacy DELETE /leads/{id} is marked deprecated in the document', async () => {
    const doc = (await platform.api.get('/openapi.json')).body;
    expect(doc.paths['/leads/{id}'].delete).toMatchObject({ operationId: 'deleteLead', deprecated: true, 'x-mcp-tool': 'delete_lead' });
    expect(doc.paths['/campaigns/{id}/leads/{lead_id}'].delete.deprecated).toBeUndefined();
  });
});

describe('segments', () => {
  test('a segment filters leads; updates need the revision; a campaign targeting it gets its leads when it starts; it cannot be deleted while targeted', async () => {
    const ws = await ready();
    const source = await createCampaign(ws);
    await platform.api.post(`/campaigns/${source.id}/leads/bulk`, ws.key, {
      leads: [
        { phone: '+14155550190', variables: { tier: 'gold' }, time_zone: 'America/Los_Angeles' },
        { phone: '+14155550191', variables: { tier: 'silver' } },
        { phone: '+442071838790', variables: { tier: 'gold' } },
      ],
    });
    const created = await platform.api.post('/segments', ws.key, { name: 'Gold US', filter: { variables: { tier: 'gold' }, phone_prefix: '+1' } });
    expect(created.status).toBe(201);
    const segment = created.body.data;
    expect(segment).toMatchObject({ name: 'Gold US', description: '', filter: { variables: { tier: 'gold' }, phone_prefix: '+1' }, revision: 1 });
    expect((await leadsOf(ws, `&segment_id=${segment.id}`)).data.map((lead: { phone: string }) => lead.phone)).toEqual(['+14155550190']);
    expectError(await platform.api.post('/segments', ws.key, { name: 'Gold US', filter: {} }), 409, 'conflict');
    expectError(await platform.api.post('/segments', ws.key, { name: 'Bad', filter: { statuses: ['sleeping'] } }), 400, 'invalid_request');
    expectError(await platform.api.post('/segments', ws.key, { name: 'Bad', filter: { phone_prefix: '415' } }), 400, 'invalid_request');
    expect((await platform.api.get('/segments', ws.key)).body.meta.pagination.total).toBe(1);

    const widened = await platform.api.patch(`/segments/${segment.id}`, ws.key, { filter: { variables: { tier: 'gold' } }, expected_revision: 1 });
    expect(widened.body.data).toMatchObject({ revision: 2, filter: { variables: { tier: 'gold' } } });
    expectError(await platform.api.patch(`/segments/${segment.id}`, ws.key, { name: 'Stale', expected_revision: 1 }), 409, 'revision_conflict');
    const concurrent = await Promise.all([1, 2, 3].map((i) => platform.api.patch(`/segments/${segment.id}`, ws.key, { name: `Gold ${i}`, expected_revision: 2 })));
    expect(concurrent.filter((answer) => answer.status === 200)).toHaveLength(1);

    const targeting = await createCampaign(ws, { segment_id: segment.id });
    expect((await platform.api.get(`/campaigns/${targeting.id}`, ws.key)).body.data.segment_id).toBe(segment.id);
    const started = await platform.api.post(`/campaigns/${targeting.id}/start`, ws.key, {});
    expect(started.status).toBe(200);
    expect(started.body.data.progress.leads).toMatchObject({ total: 2, pending: 2 });
    const copied = (await platform.api.get(`/campaigns/${targeting.id}/leads`, ws.key)).body.data;
    expect(copied.map((lead: { phone: string }) => lead.phone).sort()).toEqual(['+14155550190', '+442071838790']);
    expect(copied.find((lead: { phone: string }) => lead.phone === '+14155550190').time_zone).toBe('America/Los_Angeles');

    expectError(await platform.api.delete(`/segments/${segment.id}`, ws.key), 409, 'conflict');
    await platform.api.post(`/campaigns/${targeting.id}/stop`, ws.key, {});
    await platform.api.delete(`/campaigns/${targeting.id}`, ws.key);
    expect((await platform.api.delete(`/segments/${segment.id}`, ws.key)).body).toEqual({ data: { id: segment.id, deleted: true } });
    expectError(await platform.api.get(`/segments/${segment.id}`, ws.key), 404, 'not_found');
  });

  test('a campaign targeting a segment whose filter matches nothing has nothing to start', async () => {
    const ws = await ready();
    const segment = (await platform.api.post('/segments', ws.key, { name: 'Nobody', filter: { phone_prefix: '+81' } })).body.data;
    const campaign = await createCampaign(ws, { segment_id: segment.id });
    expectError(await platform.api.post(`/campaigns/${campaign.id}/start`, ws.key, {}), 409, 'conflict');
  });
});

describe('access', () => {
  test('another workspace’s campaigns, leads and segments are 404', async () => {
    const mine = await ready();
    const theirs = await ready();
    const campaign = await createCampaign(theirs);
    const lead = (await platform.api.post(`/campaigns/${campaign.id}/leads`, theirs.key, { phone: '+14155550199' })).body.data;
    const segment = (await platform.api.post('/segments', theirs.key, { name: 'Theirs', filter: {} })).body.data;
    expectError(await platform.api.post(`/campaigns/${campaign.id}/leads`, mine.key, { phone: '+14155550198' }), 404, 'not_found');
    expectError(await platform.api.post(`/campaigns/${campaign.id}/leads/bulk`, mine.key, { leads: [{ phone: '+14155550198' }] }), 404, 'not_found');
    expectError(await platform.api.get(`/campaigns/${campaign.id}/leads`, mine.key), 404, 'not_found');
    expectError(await platform.api.delete(`/campaigns/${campaign.id}/leads/${lead.id}`, mine.key), 404, 'not_found');
    expectError(await platform.api.delete(`/leads/${lead.id}`, mine.key), 404, 'not_found');
    expectError(await platform.api.get(`/leads?segment_id=${segment.id}`, mine.key), 404, 'not_found');
    expectError(await platform.api.get(`/segments/${segment.id}`, mine.key), 404, 'not_found');
    expectError(await platform.api.patch(`/segments/${segment.id}`, mine.key, { name: 'x', expected_revision: 1 }), 404, 'not_found');
    expectError(await platform.api.delete(`/segments/${segment.id}`, mine.key), 404, 'not_found');
    const targeting = await platform.api.post('/campaigns', mine.key, { name: 'x', assistant_id: mine.assistantId, from_number_ids: [mine.number.id], segment_id: segment.id });
    expectError(targeting, 400, 'invalid_request');
    expect(fieldsOf(targeting)).toEqual(['segment_id']);
    expect((await leadsOf(mine)).meta.pagination.total).toBe(0);
    expect((await platform.api.get(`/campaigns/${campaign.id}/leads`, theirs.key)).body.data[0].status).toBe('pending');
  });

  test('leads:* and segments:* scopes gate their routes', async () => {
    const ws = await ready();
    const campaign = await createCampaign(ws);
    const campaignsOnly = await platform.key(ws.id, ['campaigns:write']);
    const leadsReader = await platform.key(ws.id, ['leads:read']);
    const leadsWriter = await platform.key(ws.id, ['leads:write']);
    const segmentsReader = await platform.key(ws.id, ['segments:read']);
    expectError(await platform.api.post(`/campaigns/${campaign.id}/leads`, campaignsOnly, { phone: '+14155550197' }), 403, 'forbidden');
    expectError(await platform.api.post(`/campaigns/${campaign.id}/leads`, leadsReader, { phone: '+14155550197' }), 403, 'forbidden');
    expectError(await platform.api.get('/leads', campaignsOnly), 403, 'forbidden');
    expect((await platform.api.get('/leads', leadsReader)).status).toBe(200);
    expect((await platform.api.post(`/campaigns/${campaign.id}/leads/bulk`, leadsWriter, { leads: [{ phone: '+14155550197' }] })).status).toBe(200);
    expectError(await platform.api.get('/segments', leadsWriter), 403, 'forbidden');
    expect((await platform.api.get('/segments', segmentsReader)).status).toBe(200);
    expectError(await platform.api.post('/segments', segmentsReader, { name: 'x', filter: {} }), 403, 'forbidden');
  });
});
