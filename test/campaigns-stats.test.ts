// A campaign's progress through the gateway, in one process with the sandbox carrier and voice runtime:
// calls of known outcomes (answered, busy, not answered, failed, a voicemail box, by the sandbox's magic numbers) are
// counted, their minutes and credits summed exactly as billing charged each call, the same in
// GET /campaigns/{id}, GET /campaigns/{id}/stats and the MCP tools; another workspace's campaign is 404, and a
// call merely tagged with the campaign in its metadata is not counted.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expectError } from './support/api-client.js';
import { callingWorkspace, dayWindow } from './support/campaigns.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { eventually } from './support/telephony.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ VOICE_NUMBER_MONTHLY_CREDITS: '0' });
});
afterAll(() => platform.close());

const outcomes = { busy: '+15005550006', noAnswer: '+15005550007', failed: '+15005550008', voicemailBox: '+15005550010' };
const answering = ['+15005552101', '+15005552102', '+15005552103'];

/** One included minute: the first minute billed uses it, the others are paid in credits. */
const ready = () => callingWorkspace(platform, { credits: '20.0000', minutes: '1' });

interface ListedCall {
  status: string;
  answered_at: string | null;
  end_reason: string | null;
  minutes_charged: string;
  credits_charged: string;
  metadata: { campaign_id?: string };
}

test('the progress counts the calls by outcome and sums their billed minutes and charges, as the calls show them', async () => {
  const ws = await ready();
  const created = await platform.api.post('/campaigns', ws.key, {
    name: 'Stats',
    assistant_id: ws.assistantId,
    from_number_ids: [ws.number.id],
    window: dayWindow('open'),
    pacing: { max_concurrent: 2, calls_per_minute: 600 },
    retry: { max_attempts: 1, delay_minutes: 1, on: ['busy'] },
  });
  expect(created.status).toBe(201);
  const id = created.body.data.id as string;
  // Before any call, the progress has every count at zero (and the list shows lead counts only).
  const empty = await platform.api.get(`/campaigns/${id}/stats`, ws.key);
  expect(empty.status).toBe(200);
  expect(empty.body.data.progress.calls).toEqual({
    placed: 0, connected: 0, active: 0, completed: 0, voicemail: 0, no_answer: 0, busy: 0, failed: 0, canceled: 0,
    minutes: '0.000', minutes_charged: '0.000', credits_charged: '0.0000',
  });
  for (const phone of [...answering, ...Object.values(outcomes)]) {
    expect((await platform.api.post(`/campaigns/${id}/leads`, ws.key, { phone, name: 'Ada' })).status).toBe(201);
  }
  expect((await platform.api.post(`/campaigns/${id}/start`, ws.key, {})).status).toBe(200);
  // A campaign completes only after each call's end was published, which waits for its charge.
  await eventually(async () => ((await platform.api.get(`/campaigns/${id}`, ws.key)).body.data.status === 'completed' ? true : undefined), 60_000, 'the campaign to complete');

  const expected = {
    placed: 7,
    connected: 4,
    active: 0,
    completed: 3,
    voicemail: 1,
    no_answer: 1,
    busy: 1,
    failed: 1,
    canceled: 0,
    // Each answered sandbox call (the voicemail box's too) lasts a few seconds: one started minute each.
    minutes: '4.000',
    minutes_charged: '1.000',
    // Three minutes beyond the included one, at the default 0.1000 credits a minute.
    credits_charged: '0.3000',
  };
  const campaign = await platform.api.get(`/campaigns/${id}`, ws.key);
  expect(campaign.body.data.progress).toEqual({
    leads: { total: 7, pending: 0, calling: 0, completed: 4, failed: 3, retry_scheduled: 0, do_not_call: 0, removed: 0 },
    calls: expected,
  });
  const stats = await platform.api.get(`/campaigns/${id}/stats`, ws.key);
  expect(stats.status).toBe(200);
  expect(stats.body.data).toEqual({ campaign_id: id, status: 'completed', progress: campaign.body.data.progress });

  // The same numbers as the calls' own records.
  const listed = await platform.api.get('/calls?limit=100', ws.key);
  const calls = (listed.body.data as ListedCall[]).filter((call) => call.metadata.campaign_id === id);
  expect(calls).toHaveLength(expected.placed);
  expect(calls.filter((call) => call.answered_at !== null)).toHaveLength(expected.connected);
  expect(calls.map((call) => call.status).sort()).toEqual(['busy', 'completed', 'completed', 'completed', 'completed', 'failed', 'no_answer']);
  expect(calls.filter((call) => call.end_reason === 'voicemail')).toHaveLength(1);
  const sum = (field: 'minutes_charged' | 'credits_charged') => calls.reduce((total, call) => total + Number(call[field]), 0);
  expect(sum('minutes_charged')).toBeCloseTo(1, 6);
  expect(sum('credits_charged')).toBeCloseTo(0.3, 6);
  // The wallet agrees: 20 credits and one minute less what the calls cost.
  const balance = await platform.api.get('/balance', ws.key);
  expect(balance.body.data).toMatchObject({ credits: '19.7000', minutes: '0.000' });

  // Lists stay with lead counts.
  const list = await platform.api.get('/campaigns', ws.key);
  expect(list.body.data.find((item: { id: string }) => item.id === id).progress.calls).toBeNull();

  // MCP: get_campaign and get_campaign_stats answer the same progress.
  const client = new Client({ name: 'campaign-stats-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${platform.running.url}/mcp?toolsets=campaigns`), { requestInit: { headers: { Authorization: `Bearer ${ws.key}` } } }));
  try {
    const got = await client.callTool({ name: 'get_campaign', arguments: { id } });
    expect((got.structuredContent as { data: { progress: unknown } }).data.progress).toEqual(campaign.body.data.progress);
    const viaTool = await client.callTool({ name: 'get_campaign_stats', arguments: { id } });
    expect((viaTool.structuredContent as { data: unknown }).data).toEqual(stats.body.data);
  } finally {
    await client.close();
  }

  // Another workspace sees nothing of it.
  const other = await ready();
  expectError(await platform.api.get(`/campaigns/${id}/stats`, other.key), 404, 'not_found');

  // A call POST /calls tags with the campaign in its metadata, in this workspace or another, is not the campaign's
  // (only the dialer names a call's campaign): neither while it runs nor once it ended and was charged.
  const tagged: string[] = [];
  for (const caller of [ws, other]) {
    const call = await platform.api.post('/calls', caller.key, { assistant_id: caller.assistantId, from: caller.number.number, to: answering[0], metadata: { campaign_id: id } });
    expect(call.status).toBe(201);
    tagged.push(call.body.data.id as string);
  }
  expect((await platform.api.get(`/campaigns/${id}/stats`, ws.key)).body.data).toEqual(stats.body.data);
  await eventually(async () => ((await platform.api.get(`/calls/${tagged[0]}`, ws.key)).body.data.credits_charged !== '0.0000' ? true : undefined), 30_000, 'the tagged call to be charged');
  expect((await platform.api.get(`/campaigns/${id}/stats`, ws.key)).body.data).toEqual(stats.body.data);
  expectError(await platform.api.get(`/campaigns/${id}`, other.key), 404, 'not_found');
  expectError(await platform.api.get('/campaigns/not-a-campaign/stats', ws.key), 404, 'not_found');
}, 120_000);

test('a key without campaigns:read cannot read a campaign’s progress', async () => {
  const ws = await ready();
  const created = await platform.api.post('/campaigns', ws.key, { name: 'Scoped', assistant_id: ws.assistantId, from_number_ids: [ws.number.id] });
  expect(created.status).toBe(201);
  const billingOnly = await platform.key(ws.id, ['billing:read']);
  expectError(await platform.api.get(`/campaigns/${created.body.data.id}/stats`, billingOnly), 403, 'forbidden');
  const reader = await platform.key(ws.id, ['campaigns:read']);
  expect((await platform.api.get(`/campaigns/${created.body.data.id}/stats`, reader)).status).toBe(200);
});
