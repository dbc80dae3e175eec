// The dialer through the gateway, in one process with the sandbox carrier and voice runtime: a started
// campaign calls each lead exactly once (a busy one as its retry policy says), never a suppressed
// number (also one suppressed after the start), never a lead outside its calling window, never above
// its calls per minute; the leads end completed or failed with their calls, and the campaign
// completes; stop halts new dials at once.
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { callingWorkspace, dayWindow, windowZones } from './support/campaigns.js';
import { buySmsNumber, eventually } from './support/telephony.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ VOICE_NUMBER_MONTHLY_CREDITS: '0' });
});
afterAll(() => platform.close());

const busy = '+15005550006';
const ready = () => callingWorkspace(platform, { credits: '20.0000', minutes: '0' });

type Ready = Awaited<ReturnType<typeof ready>>;

async function createCampaign(ws: Ready, settings: Record<string, unknown>) {
  const created = await platform.api.post('/campaigns', ws.key, {
    name: 'Dialer',
    assistant_id: ws.assistantId,
    from_number_ids: [ws.number.id],
    window: dayWindow('open'),
    ...settings,
  });
  expect(created.status).toBe(201);
  return created.body.data.id as string;
}

async function addLead(ws: Ready, campaignId: string, phone: string, timeZone?: string) {
  const added = await platform.api.post(`/campaigns/${campaignId}/leads`, ws.key, { phone, name: 'Ada', ...(timeZone ? { time_zone: timeZone } : {}) });
  expect(added.status).toBe(201);
  return added.body.data.id as string;
}

interface ListedCall {
  id: string;
  to: string;
  status: string;
  metadata: { campaign_id?: string; lead_id?: string; attempt?: number };
}

/** The workspace's calls a campaign placed (by the metadata the dialer gives them). */
async function campaignCalls(ws: Ready, campaignId: string): Promise<ListedCall[]> {
  const calls: ListedCall[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await platform.api.get(`/calls?limit=100&offset=${offset}`, ws.key);
    expect(page.status).toBe(200);
    calls.push(...(page.body.data as ListedCall[]));
    if (offset + 100 >= page.body.meta.pagination.total) break;
  }
  return calls.filter((call) => call.metadata.campaign_id === campaignId);
}

const campaignOf = async (ws: Ready, id: string) => (await platform.api.get(`/campaigns/${id}`, ws.key)).body.data;

async function leadsOf(ws: Ready, campaignId: string) {
  const listed = await platform.api.get(`/campaigns/${campaignId}/leads?limit=100`, ws.key);
  expect(listed.status).toBe(200);
  return listed.body.data as { id: string; phone: string; status: string; attempts: number; call_ids: string[] }[];
}

test('a started campaign calls each lead once, retries the busy one, skips the suppressed, and completes', async () => {
  const ws = await ready();
  const id = await createCampaign(ws, { pacing: { max_concurrent: 2, calls_per_minute: 600 }, retry: { max_attempts: 2, delay_minutes: 1, on: ['busy'] } });
  // Oldest first in the queue's last place: suppressed right after the start, it is not reached by then.
  const lateSuppressed = '+15005550199';
  await addLead(ws, id, lateSuppressed);
  const answering = Array.from({ length: 16 }, (_, i) => `+1500555${String(1100 + i)}`);
  for (const phone of answering) await addLead(ws, id, phone);
  const busyLead = await addLead(ws, id, busy);
  const suppressedBefore = '+15005550198';
  await addLead(ws, id, suppressedBefore);
  expect((await platform.api.post('/suppression', ws.key, { number: suppressedBefore })).status).toBe(201);

  const started = await platform.api.post(`/campaigns/${id}/start`, ws.key, {});
  expect(started.status).toBe(200);
  expect((await platform.api.post('/suppression', ws.key, { number: lateSuppressed })).status).toBe(201);

  // The busy lead's second attempt comes after the policy's delay of a minute.
  const done = await eventually(async () => ((await campaignOf(ws, id)).status === 'completed' ? true : undefined), 110_000, 'the campaign to complete');
  expect(done).toBe(true);
  const calls = await campaignCalls(ws, id);
  const answeredCalls = calls.filter((call) => call.to !== busy);
  expect(answeredCalls.map((call) => call.to).sort()).toEqual([...answering].sort());
  expect(answeredCalls.every((call) => call.status === 'completed' && call.metadata.attempt === 1)).toBe(true);
  const busyCalls = calls.filter((call) => call.to === busy);
  expect(busyCalls.map((call) => [call.status, call.metadata.attempt]).sort()).toEqual([
    ['busy', 1],
    ['busy', 2],
  ]);
  expect(calls.some((call) => call.to === suppressedBefore || call.to === lateSuppressed)).toBe(false);

  const leads = await leadsOf(ws, id);
  const byPhone = new Map(leads.map((lead) => [lead.phone, lead]));
  for (const phone of answering) {
    const lead = byPhone.get(phone)!;
    expect(lead).toMatchObject({ status: 'completed', attempts: 1 });
    expect(lead.call_ids).toEqual(answeredCalls.filter((call) => call.to === phone).map((call) => call.id));
  }
  expect(byPhone.get(busy)).toMatchObject({ id: busyLead, status: 'failed', attempts: 2 });
  expect([...byPhone.get(busy)!.call_ids].sort()).toEqual(busyCalls.map((call) => call.id).sort());
  expect(byPhone.get(suppressedBefore)).toMatchObject({ status: 'do_not_call', attempts: 0, call_ids: [] });
  expect(byPhone.get(lateSuppressed)).toMatchObject({ status: 'do_not_call', attempts: 0, call_ids: [] });
  expect((await campaignOf(ws, id)).progress.leads).toMatchObject({ completed: 16, failed: 1, do_not_call: 2, pending: 0, calling: 0, retry_scheduled: 0 });
}, 150_000);

test('leads outside their calling window are not dialled; those inside are', async () => {
  const ws = await ready();
  const id = await createCampaign(ws, {});
  const { closed } = windowZones();
  const outside = ['+15005550301', '+15005550302'];
  for (const phone of outside) await addLead(ws, id, phone, closed);
  const inside = '+15005550303';
  await addLead(ws, id, inside);
  expect((await platform.api.post(`/campaigns/${id}/start`, ws.key, {})).status).toBe(200);
  await eventually(async () => ((await leadsOf(ws, id)).find((lead) => lead.phone === inside)?.status === 'completed' ? true : undefined), 30_000, 'the lead inside its window to be called');
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect((await campaignCalls(ws, id)).map((call) => call.to)).toEqual([inside]);
  const leads = await leadsOf(ws, id);
  for (const phone of outside) expect(leads.find((lead) => lead.phone === phone)).toMatchObject({ status: 'pending', attempts: 0, call_ids: [] });
  expect((await campaignOf(ws, id)).status).toBe('running');
  expect((await platform.api.post(`/campaigns/${id}/stop`, ws.key, {})).status).toBe(200);
}, 60_000);

test('stop halts new dials within seconds; the calls in progress end and settle their leads; a new start calls the rest', async () => {
  const ws = await ready();
  const id = await createCampaign(ws, { pacing: { max_concurrent: 1, calls_per_minute: 600 } });
  for (let i = 0; i < 12; i += 1) await addLead(ws, id, `+1500555${String(1200 + i)}`);
  expect((await platform.api.post(`/campaigns/${id}/start`, ws.key, {})).status).toBe(200);
  await eventually(async () => ((await campaignCalls(ws, id)).length >= 2 ? true : undefined), 30_000, 'two calls');
  expect((await platform.api.post(`/campaigns/${id}/stop`, ws.key, {})).status).toBe(200);
  const atStop = (await campaignCalls(ws, id)).length;
  await new Promise((resolve) => setTimeout(resolve, 4_000));
  const calls = await campaignCalls(ws, id);
  // A job claimed in the instant of the stop may still place its call: one at most, at this concurrency.
  expect(calls.length).toBeLessThanOrEqual(atStop + 1);
  expect(calls.length).toBeLessThan(12);
  const leads = await leadsOf(ws, id);
  expect(leads.filter((lead) => lead.status === 'pending')).toHaveLength(12 - calls.length);
  expect((await campaignOf(ws, id)).status).toBe('stopped');

  // Started again, it calls the leads it had not reached, each once, and completes.
  expect((await platform.api.post(`/campaigns/${id}/start`, ws.key, {})).status).toBe(200);
  await eventually(async () => ((await campaignOf(ws, id)).status === 'completed' ? true : undefined), 60_000, 'the restarted campaign to complete');
  const all = await campaignCalls(ws, id);
  expect(all.map((call) => call.to).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `+1500555${String(1200 + i)}`).sort());
  expect((await leadsOf(ws, id)).every((lead) => lead.status === 'completed' && lead.attempts === 1)).toBe(true);
}, 120_000);

test('calls per minute holds across the minute: the rest wait for the next one', async () => {
  // The count is per clock minute: started early in one, so the whole check stays inside it.
  while (new Date().getUTCSeconds() > 40) await new Promise((resolve) => setTimeout(resolve, 500));
  const ws = await ready();
  const id = await createCampaign(ws, { pacing: { max_concurrent: 10, calls_per_minute: 3 } });
  for (let i = 0; i < 6; i += 1) await addLead(ws, id, `+1500555${String(1300 + i)}`);
  expect((await platform.api.post(`/campaigns/${id}/start`, ws.key, {})).status).toBe(200);
  await eventually(async () => ((await campaignCalls(ws, id)).length >= 3 ? true : undefined), 15_000, 'three calls');
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  expect(await campaignCalls(ws, id)).toHaveLength(3);
  expect((await leadsOf(ws, id)).filter((lead) => lead.status === 'pending')).toHaveLength(3);
  expect((await platform.api.post(`/campaigns/${id}/stop`, ws.key, {})).status).toBe(200);
}, 60_000);

test('an empty wallet pauses the campaign with its reason and fails no lead; funded and started again, it calls the rest once each', async () => {
  const workspace = await platform.workspace({ plan: 'pro' });
  // One minute: the first call's hold, and after it less than a minute is left.
  await platform.fund(workspace.id, '0', '1');
  const number = await buySmsNumber(platform.api, workspace.key, { enable: false });
  const assistant = await platform.api.post('/assistants', workspace.key, { name: 'Caller', first_message: 'Hello {{name}}.' });
  const ws: Ready = { ...workspace, number, assistantId: assistant.body.data.id as string };
  const id = await createCampaign(ws, { pacing: { max_concurrent: 1, calls_per_minute: 600 } });
  const phones = Array.from({ length: 4 }, (_, i) => `+1500555${String(1400 + i)}`);
  for (const phone of phones) await addLead(ws, id, phone);
  expect((await platform.api.post(`/campaigns/${id}/start`, ws.key, {})).status).toBe(200);

  const paused = await eventually(async () => {
    const campaign = await campaignOf(ws, id);
    return campaign.status === 'paused' ? campaign : undefined;
  }, 60_000, 'the campaign to pause');
  expect(paused).toMatchObject({ status: 'paused', paused_reason: 'insufficient_funds' });
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const first = await campaignCalls(ws, id);
  expect(first).toHaveLength(1);
  const leads = await leadsOf(ws, id);
  expect(leads.find((lead) => lead.phone === first[0]!.to)).toMatchObject({ status: 'completed', attempts: 1 });
  const rest = leads.filter((lead) => lead.phone !== first[0]!.to);
  expect(rest.map((lead) => [lead.status, lead.attempts])).toEqual([
    ['pending', 0],
    ['pending', 0],
    ['pending', 0],
  ]);
  // Paused is not running: stop stays 409 (SPEC.md 3); start resumes.
  expect((await platform.api.post(`/campaigns/${id}/stop`, ws.key, {})).status).toBe(409);

  await platform.fund(workspace.id, '20.0000', '0');
  const resumed = await platform.api.post(`/campaigns/${id}/start`, ws.key, {});
  expect(resumed.status).toBe(200);
  expect(resumed.body.data).toMatchObject({ status: 'running', paused_reason: null });
  await eventually(async () => ((await campaignOf(ws, id)).status === 'completed' ? true : undefined), 60_000, 'the resumed campaign to complete');
  const all = await campaignCalls(ws, id);
  expect(all.map((call) => call.to).sort()).toEqual([...phones].sort());
  expect((await leadsOf(ws, id)).every((lead) => lead.status === 'completed' && lead.attempts === 1)).toBe(true);
  expect((await campaignOf(ws, id)).paused_reason).toBeNull();
}, 150_000);

test('removing the last lead left to call of a running campaign completes it', async () => {
  const ws = await ready();
  const id = await createCampaign(ws, {});
  const answering = await addLead(ws, id, '+15005551301');
  // Outside its own calling window: it waits, pending, while the other one is called.
  const waiting = await addLead(ws, id, '+15005551302', windowZones().closed);
  expect((await platform.api.post(`/campaigns/${id}/start`, ws.key, {})).status).toBe(200);
  await eventually(async () => ((await leadsOf(ws, id)).find((lead) => lead.id === answering)?.status === 'completed' ? true : undefined), 30_000, 'the open lead to be called');
  expect(await campaignOf(ws, id)).toMatchObject({ status: 'running' });

  expect((await platform.api.delete(`/campaigns/${id}/leads/${waiting}`, ws.key)).status).toBe(200);
  expect(await campaignOf(ws, id)).toMatchObject({ status: 'completed' });
  expect((await campaignCalls(ws, id)).map((call) => call.to)).toEqual(['+15005551301']);
});

test('a lead added to a running campaign, alone or in a bulk import, is called in that run at once', async () => {
  const ws = await ready();
  const id = await createCampaign(ws, {});
  // Outside its own calling window: it keeps the campaign running while the added leads are called.
  await addLead(ws, id, '+15005551401', windowZones().closed);
  expect((await platform.api.post(`/campaigns/${id}/start`, ws.key, {})).status).toBe(200);
  await addLead(ws, id, '+15005551402');
  const bulk = await platform.api.post(`/campaigns/${id}/leads/bulk`, ws.key, { leads: [{ phone: '+15005551403' }, { phone: '+15005551404' }] });
  expect(bulk.status).toBe(200);
  // The dialer's recovery, which also enqueues them, runs every 5 minutes: within 30 s only the add itself can have.
  await eventually(async () => ((await campaignCalls(ws, id)).length === 3 ? true : undefined), 30_000, 'the added leads to be called');
  expect((await campaignCalls(ws, id)).map((call) => call.to).sort()).toEqual(['+15005551402', '+15005551403', '+15005551404']);
  expect(await campaignOf(ws, id)).toMatchObject({ status: 'running' });
});

test('a running campaign whose window is closed, given a window open now, calls its waiting leads at once, each once', async () => {
  const ws = await ready();
  // Leads without a zone of their own: the window's zone decides, just past midnight there.
  const id = await createCampaign(ws, { window: dayWindow('closed') });
  const phones = ['+15005551501', '+15005551502', '+15005551503'];
  for (const phone of phones) await addLead(ws, id, phone);
  const started = await platform.api.post(`/campaigns/${id}/start`, ws.key, {});
  expect(started.status).toBe(200);
  // The dialer has met the closed window and put each job off until it opens, hours away.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(await campaignCalls(ws, id)).toEqual([]);

  const widened = await platform.api.patch(`/campaigns/${id}`, ws.key, { window: dayWindow('open'), expected_revision: started.body.data.revision });
  expect(widened.status).toBe(200);
  expect(widened.body.data).toMatchObject({ status: 'running', window: dayWindow('open') });
  // The dialer's recovery runs every 5 minutes: within 30 s only the change itself can have enqueued them.
  await eventually(async () => ((await campaignOf(ws, id)).status === 'completed' ? true : undefined), 30_000, 'the leads to be called in the new window');
  const calls = await campaignCalls(ws, id);
  expect(calls.map((call) => call.to).sort()).toEqual(phones);
  expect(calls.every((call) => call.metadata.attempt === 1)).toBe(true);
  expect((await leadsOf(ws, id)).every((lead) => lead.status === 'completed' && lead.attempts === 1 && lead.call_ids.length === 1)).toBe(true);
}, 60_000);
