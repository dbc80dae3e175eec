// Campaigns through the gateway: create (references checked against the workspace's assistants and
// numbers, defaults filled), read, list, revision-checked PATCH (concurrent ones included), delete;
// the state machine with every 409 (start while running or without leads, stop when not running, a
// running campaign's unsafe changes and its deletion); bad bodies change nothing; another workspace's
// campaign is 404; scopes are 403; the MCP tools.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expectError, fieldsOf } from './support/api-client.js';
import { dayWindow } from './support/campaigns.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { buySmsNumber } from './support/telephony.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ VOICE_NUMBER_MONTHLY_CREDITS: '0' });
});
afterAll(() => platform.close());

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A workspace with an assistant and a voice number a campaign can use. */
async function ready(plan = 'pro') {
  const workspace = await platform.workspace({ plan });
  const number = await buySmsNumber(platform.api, workspace.key, { enable: false });
  const assistant = await platform.api.post('/assistants', workspace.key, { name: 'Caller' });
  expect(assistant.status).toBe(201);
  return { ...workspace, number, assistantId: assistant.body.data.id as string };
}

type Ready = Awaited<ReturnType<typeof ready>>;

const campaignBody = (ws: Ready, extra: Record<string, unknown> = {}) => ({ name: 'Spring renewals', assistant_id: ws.assistantId, from_number_ids: [ws.number.id], ...extra });

async function createCampaign(ws: Ready, extra: Record<string, unknown> = {}) {
  const created = await platform.api.post('/campaigns', ws.key, campaignBody(ws, extra));
  expect(created.status).toBe(201);
  return created.body.data as { id: string; revision: number; status: string };
}

async function addLead(ws: Ready, campaignId: string, phone: string) {
  const added = await platform.api.post(`/campaigns/${campaignId}/leads`, ws.key, { phone });
  expect(added.status).toBe(201);
  return added.body.data as { id: string };
}

const zeroCounts = { total: 0, pending: 0, calling: 0, completed: 0, failed: 0, retry_scheduled: 0, do_not_call: 0, removed: 0 };

describe('campaign CRUD', () => {
  test('create fills the defaults and answers the whole campaign in draft; get and list read it back', async () => {
    const ws = await ready();
    const created = await platform.api.post('/campaigns', ws.key, campaignBody(ws));
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Spring renewals',
      status: 'draft',
      paused_reason: null,
      assistant_id: ws.assistantId,
      from_number_ids: [ws.number.id],
      segment_id: null,
      window: { days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00', time_zone: 'UTC' },
      pacing: { max_concurrent: 5, calls_per_minute: 30 },
      retry: { max_attempts: 3, delay_minutes: 60, on: ['no_answer', 'busy'] },
      schedule: null,
      next_run_at: null,
      progress: { leads: zeroCounts, calls: null },
      revision: 1,
      started_at: null,
      stopped_at: null,
      created_at: expect.stringMatching(iso),
      updated_at: expect.stringMatching(iso),
    });
    const id = created.body.data.id;
    // Only GET counts the campaign's calls (at the calls service); create answers them as null.
    const noCalls = { placed: 0, connected: 0, active: 0, completed: 0, voicemail: 0, no_answer: 0, busy: 0, failed: 0, canceled: 0, minutes: '0.000', minutes_charged: '0.000', credits_charged: '0.0000' };
    expect((await platform.api.get(`/campaigns/${id}`, ws.key)).body.data).toEqual({ ...created.body.data, progress: { leads: zeroCounts, calls: noCalls } });

    const window = { days: ['sat'], start: '10:00', end: '12:30', time_zone: 'Europe/Berlin' };
    const second = await createCampaign(ws, { name: 'Weekend', window, pacing: { max_concurrent: 2, calls_per_minute: 10 }, retry: { max_attempts: 1, delay_minutes: 5, on: [] } });
    const list = await platform.api.get('/campaigns?limit=1', ws.key);
    expect(list.body.meta.pagination).toEqual({ limit: 1, offset: 0, total: 2 });
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([second.id]);
    expect((await platform.api.get(`/campaigns/${second.id}`, ws.key)).body.data.window).toEqual(window);
    expect((await platform.api.get('/campaigns?status=running', ws.key)).body.meta.pagination.total).toBe(0);
    expect((await platform.api.get('/campaigns?status=draft', ws.key)).body.meta.pagination.total).toBe(2);
    expectError(await platform.api.get('/campaigns?status=sleeping', ws.key), 400, 'invalid_request');
  });

  test('bad bodies are 400 naming the field, and nothing is created', async () => {
    const ws = await ready();
    const other = await ready();
    const bad: [Record<string, unknown>, string][] = [
      [{ ...campaignBody(ws), name: '' }, 'name'],
      [{ ...campaignBody(ws), assistant_id: 'nope' }, 'assistant_id'],
      [{ ...campaignBody(ws), assistant_id: other.assistantId }, 'assistant_id'],
      [{ ...campaignBody(ws), from_number_ids: [] }, 'from_number_ids'],
      [{ ...campaignBody(ws), from_number_ids: [other.number.id] }, 'from_number_ids.0'],
      [{ ...campaignBody(ws), from_number_ids: [ws.number.id, ws.number.id] }, 'from_number_ids'],
      [{ ...campaignBody(ws), segment_id: '2d1f6a0e-3c1b-4b8e-9c1a-6f0e2b7a9d11' }, 'segment_id'],
      [{ ...campaignBody(ws), window: { days: ['mon'], start: '18:00', end: '09:00', time_zone: 'UTC' } }, 'window.end'],
      [{ ...campaignBody(ws), window: { days: ['mon'], start: '09:00', end: '17:00', time_zone: 'Mars/Olympus' } }, 'window.time_zone'],
      [{ ...campaignBody(ws), window: { days: ['funday'], start: '09:00', end: '17:00', time_zone: 'UTC' } }, 'window.days.0'],
      [{ ...campaignBody(ws), pacing: { max_concurrent: 0, calls_per_minute: 10 } }, 'pacing.max_concurrent'],
      [{ ...campaignBody(ws), retry: { max_attempts: 3, delay_minutes: 5, on: ['answered'] } }, 'retry.on.0'],
      [{ ...campaignBody(ws), status: 'running' }, 'status'],
    ];
    for (const [body, field] of bad) {
      const refused = await platform.api.post('/campaigns', ws.key, body);
      expectError(refused, 400, 'invalid_request');
      expect(fieldsOf(refused)).toContain(field);
    }
    expect((await platform.api.get('/campaigns', ws.key)).body.meta.pagination.total).toBe(0);
  });

  test('PATCH replaces the settings sent, needs the current revision, and checks references; bad ones change nothing', async () => {
    const ws = await ready();
    const campaign = await createCampaign(ws);
    const pacing = { max_concurrent: 9, calls_per_minute: 60 };
    const updated = await platform.api.patch(`/campaigns/${campaign.id}`, ws.key, { name: 'Renamed', pacing, expected_revision: 1 });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'Renamed', pacing, revision: 2, retry: { max_attempts: 3 } });

    expectError(await platform.api.patch(`/campaigns/${campaign.id}`, ws.key, { name: 'Stale', expected_revision: 1 }), 409, 'revision_conflict');
    expectError(await platform.api.patch(`/campaigns/${campaign.id}`, ws.key, { name: 'No revision' }), 400, 'invalid_request');
    const badAssistant = await platform.api.patch(`/campaigns/${campaign.id}`, ws.key, { assistant_id: '2d1f6a0e-3c1b-4b8e-9c1a-6f0e2b7a9d11', expected_revision: 2 });
    expectError(badAssistant, 400, 'invalid_request');
    expect(fieldsOf(badAssistant)).toEqual(['assistant_id']);
    expectError(await platform.api.patch(`/campaigns/${campaign.id}`, ws.key, { pacing: { max_concurrent: 1 }, expected_revision: 2 }), 400, 'invalid_request');
    expect((await platform.api.get(`/campaigns/${campaign.id}`, ws.key)).body.data).toMatchObject({ name: 'Renamed', pacing, revision: 2 });
  });

  test('concurrent PATCHes with the same revision: exactly one wins, the others are revision_conflict', async () => {
    const ws = await ready();
    const campaign = await createCampaign(ws);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => platform.api.patch(`/campaigns/${campaign.id}`, ws.key, { name: `Writer ${i}`, expected_revision: 1 })),
    );
    const won = answers.filter((answer) => answer.status === 200);
    expect(won).toHaveLength(1);
    for (const lost of answers.filter((answer) => answer.status !== 200)) expectError(lost, 409, 'revision_conflict');
    expect((await platform.api.get(`/campaigns/${campaign.id}`, ws.key)).body.data).toMatchObject({ name: won[0]!.body.data.name, revision: 2 });
  });

  test('delete removes the campaign and its leads', async () => {
    const ws = await ready();
    const campaign = await createCampaign(ws);
    await addLead(ws, campaign.id, '+15005550140');
    expect((await platform.api.delete(`/campaigns/${campaign.id}`, ws.key)).body).toEqual({ data: { id: campaign.id, deleted: true } });
    expectError(await platform.api.get(`/campaigns/${campaign.id}`, ws.key), 404, 'not_found');
    expect((await platform.api.get(`/leads?status=pending`, ws.key)).body.meta.pagination.total).toBe(0);
    expectError(await platform.api.delete(`/campaigns/${campaign.id}`, ws.key), 404, 'not_found');
  });
});

describe('the state machine', () => {
  test('start needs leads and a campaign that is not running; stop needs a running one; a running campaign refuses unsafe changes and deletion', async () => {
    const ws = await ready();
    // Its window closed, the running campaign dials nobody meanwhile (and so does not complete).
    const campaign = await createCampaign(ws, { window: dayWindow('closed') });
    const path = `/campaigns/${campaign.id}`;

    // Stop when not running (draft).
    expectError(await platform.api.post(`${path}/stop`, ws.key, {}), 409, 'conflict');
    // Start without leads.
    const empty = await platform.api.post(`${path}/start`, ws.key, {});
    expectError(empty, 409, 'conflict');
    expect(empty.body.error.message).toMatch(/no leads/);

    await addLead(ws, campaign.id, '+15005550141');
    const started = await platform.api.post(`${path}/start`, ws.key, {});
    expect(started.status).toBe(200);
    expect(started.body.data).toMatchObject({ status: 'running', started_at: expect.stringMatching(iso), stopped_at: null, revision: 2, progress: { leads: { total: 1, pending: 1 } } });

    // Start when running.
    const again = await platform.api.post(`${path}/start`, ws.key, {});
    expectError(again, 409, 'conflict');
    expect(again.body.error.message).toMatch(/already running/);

    // A running campaign takes name, pacing and window; anything else is 409 and changes nothing.
    const safe = await platform.api.patch(path, ws.key, { name: 'Live', window: { ...dayWindow('closed'), days: ['mon'], start: '08:00', end: '20:00' }, expected_revision: 2 });
    expect(safe.body.data).toMatchObject({ name: 'Live', status: 'running', revision: 3 });
    for (const unsafe of [{ retry: { max_attempts: 1, delay_minutes: 1, on: [] } }, { assistant_id: ws.assistantId }, { from_number_ids: [ws.number.id] }, { segment_id: null }]) {
      expectError(await platform.api.patch(path, ws.key, { ...unsafe, expected_revision: 3 }), 409, 'conflict');
    }
    expectError(await platform.api.patch(path, ws.key, { name: 'Also', retry: { max_attempts: 1, delay_minutes: 1, on: [] }, expected_revision: 3 }), 409, 'conflict');
    expect((await platform.api.get(path, ws.key)).body.data).toMatchObject({ name: 'Live', revision: 3, retry: { max_attempts: 3 } });

    // A running campaign cannot be deleted.
    expectError(await platform.api.delete(path, ws.key), 409, 'conflict');

    const stopped = await platform.api.post(`${path}/stop`, ws.key, {});
    expect(stopped.body.data).toMatchObject({ status: 'stopped', stopped_at: expect.stringMatching(iso), revision: 4 });
    // Stop when stopped.
    expectError(await platform.api.post(`${path}/stop`, ws.key, {}), 409, 'conflict');
    // Stopped: every setting may change again, and it starts again.
    expect((await platform.api.patch(path, ws.key, { retry: { max_attempts: 1, delay_minutes: 1, on: ['failed'] }, expected_revision: 4 })).status).toBe(200);
    expect((await platform.api.post(`${path}/start`, ws.key, {})).body.data.status).toBe('running');
    expect((await platform.api.post(`${path}/stop`, ws.key, {})).status).toBe(200);

    // Removing the only lead leaves nothing to call.
    const [lead] = (await platform.api.get(`${path}/leads`, ws.key)).body.data;
    await platform.api.delete(`${path}/leads/${lead.id}`, ws.key);
    expectError(await platform.api.post(`${path}/start`, ws.key, {}), 409, 'conflict');
    expect((await platform.api.delete(path, ws.key)).status).toBe(200);
  });

  test('concurrent starts: exactly one starts the campaign, the others are 409', async () => {
    const ws = await ready();
    // A closed window keeps the dialer away: a call refused for funds would pause the campaign between the starts.
    const campaign = await createCampaign(ws, { window: dayWindow('closed') });
    await addLead(ws, campaign.id, '+15005550142');
    const answers = await Promise.all(Array.from({ length: 5 }, () => platform.api.post(`/campaigns/${campaign.id}/start`, ws.key, {})));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.status !== 200)) expectError(refused, 409, 'conflict');
  });
});

describe('access', () => {
  test('another workspace’s campaign is 404 for every operation; a malformed id is 404', async () => {
    const mine = await ready();
    const theirs = await ready();
    const campaign = await createCampaign(theirs);
    const path = `/campaigns/${campaign.id}`;
    expectError(await platform.api.get(path, mine.key), 404, 'not_found');
    expectError(await platform.api.patch(path, mine.key, { name: 'x', expected_revision: 1 }), 404, 'not_found');
    expectError(await platform.api.delete(path, mine.key), 404, 'not_found');
    expectError(await platform.api.post(`${path}/start`, mine.key, {}), 404, 'not_found');
    expectError(await platform.api.post(`${path}/stop`, mine.key, {}), 404, 'not_found');
    expectError(await platform.api.get('/campaigns/not-a-uuid', mine.key), 404, 'not_found');
    expect((await platform.api.get('/campaigns', mine.key)).body.meta.pagination.total).toBe(0);
    expect((await platform.api.get(path, theirs.key)).body.data.name).toBe('Spring renewals');
  });

  test('campaigns:read reads, campaigns:write writes; other scopes are 403', async () => {
    const ws = await ready();
    const campaign = await createCampaign(ws);
    const reader = await platform.key(ws.id, ['campaigns:read']);
    const stranger = await platform.key(ws.id, ['leads:write', 'segments:write']);
    expect((await platform.api.get(`/campaigns/${campaign.id}`, reader)).status).toBe(200);
    expectError(await platform.api.post('/campaigns', reader, campaignBody(ws)), 403, 'forbidden');
    expectError(await platform.api.post(`/campaigns/${campaign.id}/start`, reader, {}), 403, 'forbidden');
    expectError(await platform.api.get('/campaigns', stranger), 403, 'forbidden');
    const writer = await platform.key(ws.id, ['campaigns:write']);
    expect((await platform.api.get('/campaigns', writer)).status).toBe(200);
    expect((await platform.api.patch(`/campaigns/${campaign.id}`, writer, { name: 'By writer', expected_revision: 1 })).status).toBe(200);
  });
});

describe('MCP', () => {
  test('the campaign tools create, start and stop a campaign with the REST rules', async () => {
    const ws = await ready('pro');
    const client = new Client({ name: 'campaigns-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${platform.running.url}/mcp?toolsets=campaigns`), { requestInit: { headers: { Authorization: `Bearer ${ws.key}` } } }));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
      expect(names).toEqual(
        ['add_lead', 'add_leads', 'create_campaign', 'delete_campaign', 'delete_lead', 'get_campaign', 'get_campaign_stats', 'list_campaigns', 'list_leads', 'remove_lead_from_campaign', 'start_campaign', 'stop_campaign', 'update_campaign'].sort(),
      );
      const deleteLead = (await client.listTools()).tools.find((tool) => tool.name === 'delete_lead')!;
      expect(deleteLead.description).toMatch(/^Deprecated: /);
      const created = await client.callTool({ name: 'create_campaign', arguments: campaignBody(ws, { window: dayWindow('closed') }) });
      const campaign = (created.structuredContent as { data: { id: string } }).data;
      const refused = await client.callTool({ name: 'stop_campaign', arguments: { id: campaign.id } });
      expect(refused.isError).toBe(true);
      expect(JSON.parse((refused.content as { text: string }[])[0]!.text)).toMatchObject({ error: { code: 'conflict' } });
      await client.callTool({ name: 'add_lead', arguments: { id: campaign.id, phone: '+15005550143' } });
      const started = await client.callTool({ name: 'start_campaign', arguments: { id: campaign.id } });
      expect((started.structuredContent as { data: { status: string } }).data.status).toBe('running');
    } finally {
      await client.close();
    }
  });
});
