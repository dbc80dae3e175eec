// Callbacks through the gateway, in one process with the sandbox carrier and voice runtime: create,
// get, list (filters, paging) and cancel; every refusal (400 validation, 403 scope and suppression,
// 404 another workspace's lead, campaign or callback, 409 a removed lead or a callback no longer
// scheduled); two concurrent cancels, and cancels racing the dialer's claim (each callback either
// cancelled and never called, or called once); and callbacks firing once at (not before) their time,
// for a lead (of a completed campaign) and for a caller's number, while a cancelled one, one of a
// stopped campaign and one of a draft campaign do not.
import { newId } from '@voice/runtime/ids';
import { expectError } from './support/api-client.js';
import { dayWindow, windowZones } from './support/campaigns.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { buySmsNumber, eventually } from './support/telephony.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ VOICE_NUMBER_MONTHLY_CREDITS: '0' });
});
afterAll(() => platform.close());

async function ready() {
  const workspace = await platform.workspace({ plan: 'pro' });
  await platform.fund(workspace.id, '20.0000', '0');
  const number = await buySmsNumber(platform.api, workspace.key, { enable: false });
  const assistant = await platform.api.post('/assistants', workspace.key, { name: 'Caller', first_message: 'Hello {{name}}, you asked us to call back.' });
  expect(assistant.status).toBe(201);
  return { ...workspace, number, assistantId: assistant.body.data.id as string };
}

type Ready = Awaited<ReturnType<typeof ready>>;

interface Callback {
  id: string;
  campaign_id: string;
  lead_id: string | null;
  phone: string;
  time_zone: string | null;
  at: string;
  variables: Record<string, unknown>;
  note: string;
  status: string;
  failure_reason: string | null;
  attempts: number;
  call_id: string | null;
  created_at: string;
  updated_at: string;
}

async function createCampaign(ws: Ready) {
  const created = await platform.api.post('/campaigns', ws.key, { name: 'Callbacks', assistant_id: ws.assistantId, from_number_ids: [ws.number.id], window: dayWindow('open') });
  expect(created.status).toBe(201);
  return created.body.data.id as string;
}

async function addLead(ws: Ready, campaignId: string, phone: string, extra: Record<string, unknown> = {}) {
  const added = await platform.api.post(`/campaigns/${campaignId}/leads`, ws.key, { phone, name: 'Ada', ...extra });
  expect(added.status).toBe(201);
  return added.body.data.id as string;
}

/** A time `ms` from now, inside the calling hours of the zone where it is now midday. */
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
const { open: openZone, closed: closedZone } = windowZones();

async function schedule(ws: Ready, body: Record<string, unknown>): Promise<Callback> {
  const created = await platform.api.post('/callbacks', ws.key, body);
  expect(created.status).toBe(201);
  return created.body.data as Callback;
}

const callbackOf = async (ws: Ready, id: string): Promise<Callback> => (await platform.api.get(`/callbacks/${id}`, ws.key)).body.data;

interface ListedCall {
  id: string;
  to: string;
  status: string;
  created_at: string;
  metadata: { campaign_id?: string; callback_id?: string; lead_id?: string };
}

/** The workspace's calls that callbacks placed, by callback id. */
async function callbackCalls(ws: Ready): Promise<Map<string, ListedCall[]>> {
  const byCallback = new Map<string, ListedCall[]>();
  for (let offset = 0; ; offset += 100) {
    const page = await platform.api.get(`/calls?limit=100&offset=${offset}`, ws.key);
    expect(page.status).toBe(200);
    for (const call of page.body.data as ListedCall[]) {
      const id = call.metadata.callback_id;
      if (id) byCallback.set(id, [...(byCallback.get(id) ?? []), call]);
    }
    if (offset + 100 >= page.body.meta.pagination.total) break;
  }
  return byCallback;
}

const settled = (ws: Ready, id: string, what: string) =>
  eventually(async () => {
    const callback = await callbackOf(ws, id);
    return ['completed', 'failed', 'cancelled'].includes(callback.status) ? callback : undefined;
  }, 60_000, what);

describe('the callbacks API', () => {
  test('create, get, list with filters and paging, cancel', async () => {
    const ws = await ready();
    const campaignId = await createCampaign(ws);
    const leadId = await addLead(ws, campaignId, '+15005550401', { time_zone: openZone, variables: { tier: 'gold', plan: 'basic' } });
    const at = inMs(3600_000);
    const forLead = await schedule(ws, { lead_id: leadId, at, variables: { plan: 'pro' }, note: 'asked for an afternoon call' });
    expect(forLead).toMatchObject({
      campaign_id: campaignId,
      lead_id: leadId,
      phone: '+15005550401',
      time_zone: null,
      at,
      variables: { tier: 'gold', plan: 'pro' },
      note: 'asked for an afternoon call',
      status: 'scheduled',
      failure_reason: null,
      attempts: 0,
      call_id: null,
    });
    // An offset is kept as the instant it names, answered in UTC.
    const offsetAt = new Date(Date.now() + 7200_000);
    const local = new Date(offsetAt.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    const forNumber = await schedule(ws, { phone: '+1 (500) 555-0402', campaign_id: campaignId, at: local, time_zone: openZone });
    expect(forNumber).toMatchObject({ lead_id: null, phone: '+15005550402', time_zone: openZone, at: offsetAt.toISOString(), variables: {}, note: '' });

    expect(await callbackOf(ws, forLead.id)).toEqual(forLead);
    const all = await platform.api.get('/callbacks', ws.key);
    expect(all.body).toEqual({ data: [forNumber, forLead], meta: { pagination: { limit: 50, offset: 0, total: 2 } } });
    expect((await platform.api.get(`/callbacks?lead_id=${leadId}`, ws.key)).body.data).toEqual([forLead]);
    expect((await platform.api.get(`/callbacks?campaign_id=${campaignId}&limit=1&offset=1`, ws.key)).body).toEqual({ data: [forLead], meta: { pagination: { limit: 1, offset: 1, total: 2 } } });

    const cancelled = await platform.api.delete(`/callbacks/${forLead.id}`, ws.key);
    expect(cancelled.body).toEqual({ data: { id: forLead.id, deleted: true } });
    expect(await callbackOf(ws, forLead.id)).toMatchObject({ status: 'cancelled', call_id: null });
    // Cancelling a cancelled callback answers the same.
    expect((await platform.api.delete(`/callbacks/${forLead.id}`, ws.key)).status).toBe(200);
    expect((await platform.api.get('/callbacks?status=cancelled', ws.key)).body.data.map((c: Callback) => c.id)).toEqual([forLead.id]);
    expect((await platform.api.get('/callbacks?status=scheduled', ws.key)).body.data.map((c: Callback) => c.id)).toEqual([forNumber.id]);
  }, 60_000);

  test('every refusal: 400, 403, 404 and 409, and nothing is created', async () => {
    const ws = await ready();
    const other = await ready();
    const campaignId = await createCampaign(ws);
    const leadId = await addLead(ws, campaignId, '+15005550411', { time_zone: openZone });
    const otherCampaign = await createCampaign(other);
    const otherLead = await addLead(other, otherCampaign, '+15005550412');
    const otherCallback = await schedule(other, { lead_id: otherLead, at: inMs(3600_000) });
    const at = inMs(3600_000);

    const invalid: [Record<string, unknown>, string][] = [
      [{ at }, 'lead_id'],
      [{ lead_id: leadId, phone: '+15005550413', campaign_id: campaignId, at }, 'lead_id'],
      [{ phone: '+15005550413', at }, 'campaign_id'],
      [{ lead_id: leadId }, 'at'],
      [{ lead_id: leadId, at: 'tomorrow at noon' }, 'at'],
      [{ lead_id: leadId, at: inMs(-60_000) }, 'at'],
      [{ lead_id: leadId, at: inMs(91 * 24 * 3600_000) }, 'at'],
      [{ phone: '+15005550413', campaign_id: campaignId, at, time_zone: closedZone }, 'at'],
      [{ phone: 'not a number', campaign_id: campaignId, at, time_zone: openZone }, 'phone'],
      [{ lead_id: leadId, at, time_zone: openZone }, 'time_zone'],
      [{ phone: '+15005550413', campaign_id: campaignId, at, time_zone: 'Mars/Olympus' }, 'time_zone'],
      [{ lead_id: leadId, at, colour: 'blue' }, 'colour'],
      [{ lead_id: leadId, at, note: 'x'.repeat(1001) }, 'note'],
      [{ lead_id: leadId, at, variables: { 'bad name': 1 } }, 'variables'],
      [{ lead_id: leadId, campaign_id: otherCampaign, at }, 'campaign_id'],
      [{ lead_id: 'nope', at }, 'lead_id'],
    ];
    for (const [body, field] of invalid) {
      const refused = await platform.api.post('/callbacks', ws.key, body);
      expectError(refused, 400, 'invalid_request');
      expect(refused.body.error.message).toContain(field);
    }
    expectError(await platform.api.get('/callbacks?status=ringing', ws.key), 400, 'invalid_request');
    expectError(await platform.api.get('/callbacks?limit=0', ws.key), 400, 'invalid_request');

    // Another workspace's lead, campaign and callback are not found; so is a malformed id.
    expectError(await platform.api.post('/callbacks', ws.key, { lead_id: otherLead, at }), 404, 'not_found');
    expectError(await platform.api.post('/callbacks', ws.key, { phone: '+15005550413', campaign_id: otherCampaign, at }), 404, 'not_found');
    expectError(await platform.api.get(`/callbacks/${otherCallback.id}`, ws.key), 404, 'not_found');
    expectError(await platform.api.delete(`/callbacks/${otherCallback.id}`, ws.key), 404, 'not_found');
    expectError(await platform.api.get('/callbacks/not-a-uuid', ws.key), 404, 'not_found');
    expectError(await platform.api.get(`/callbacks?campaign_id=${otherCampaign}`, ws.key), 404, 'not_found');
    expectError(await platform.api.get(`/callbacks?lead_id=${otherLead}`, ws.key), 404, 'not_found');
    expect((await callbackOf(other, otherCallback.id)).status).toBe('scheduled');

    // Scopes: reading needs campaigns:read, writing campaigns:write.
    const reader = await platform.key(ws.id, ['campaigns:read']);
    const leadsOnly = await platform.key(ws.id, ['leads:write']);
    expectError(await platform.api.post('/callbacks', reader, { lead_id: leadId, at }), 403, 'forbidden');
    expectError(await platform.api.get('/callbacks', leadsOnly), 403, 'forbidden');
    expect((await platform.api.get('/callbacks', reader)).status).toBe(200);

    // A suppressed number, and a removed lead.
    expect((await platform.api.post('/suppression', ws.key, { number: '+15005550414' })).status).toBe(201);
    expectError(await platform.api.post('/callbacks', ws.key, { phone: '+15005550414', campaign_id: campaignId, at, time_zone: openZone }), 403, 'destination_forbidden');
    expect((await platform.api.delete(`/campaigns/${campaignId}/leads/${leadId}`, ws.key)).status).toBe(200);
    expectError(await platform.api.post('/callbacks', ws.key, { lead_id: leadId, at }), 409, 'conflict');

    expect((await platform.api.get('/callbacks', ws.key)).body.meta.pagination.total).toBe(0);
  }, 60_000);

  test('an unknown campaign or lead is 404; a lead’s own closed hours or a time without an offset is 400; none is created', async () => {
    const ws = await ready();
    const campaignId = await createCampaign(ws);
    // The campaign's window is open now; the lead's own zone, where it is the middle of the night, decides.
    const leadId = await addLead(ws, campaignId, '+15005550461', { time_zone: closedZone });
    const at = inMs(3600_000);

    const unknownCampaign = await platform.api.post('/callbacks', ws.key, { phone: '+15005550462', campaign_id: newId(), at, time_zone: openZone });
    expectError(unknownCampaign, 404, 'not_found');
    expect(unknownCampaign.body.error.message).toContain('campaign');
    const unknownLead = await platform.api.post('/callbacks', ws.key, { lead_id: newId(), at });
    expectError(unknownLead, 404, 'not_found');
    expect(unknownLead.body.error.message).toContain('lead');

    const lateForLead = await platform.api.post('/callbacks', ws.key, { lead_id: leadId, at });
    expectError(lateForLead, 400, 'invalid_request');
    expect(lateForLead.body.error.message).toContain('at');
    expect(JSON.stringify(lateForLead.body.error)).toContain(closedZone);
    for (const when of [at.replace('Z', ''), Date.parse(at), '']) {
      const refused = await platform.api.post('/callbacks', ws.key, { lead_id: leadId, at: when });
      expectError(refused, 400, 'invalid_request');
      expect(refused.body.error.message).toContain('at');
    }

    expect((await platform.api.get('/callbacks', ws.key)).body.meta.pagination.total).toBe(0);
    expect((await platform.api.get(`/leads?campaign_id=${campaignId}`, ws.key)).body.data).toMatchObject([{ id: leadId, status: 'pending', attempts: 0 }]);
  }, 60_000);

  test('two concurrent cancels both answer 200 and leave one cancelled callback', async () => {
    const ws = await ready();
    const campaignId = await createCampaign(ws);
    const callback = await schedule(ws, { phone: '+15005550421', campaign_id: campaignId, at: inMs(3600_000), time_zone: openZone });
    const answers = await Promise.all([platform.api.delete(`/callbacks/${callback.id}`, ws.key), platform.api.delete(`/callbacks/${callback.id}`, ws.key)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await callbackOf(ws, callback.id)).toMatchObject({ status: 'cancelled', call_id: null, attempts: 0 });
  }, 30_000);
});

describe('firing', () => {
  test('callbacks fire once at (not before) their time; a cancelled one never fires', async () => {
    const ws = await ready();
    const campaignId = await createCampaign(ws);
    const leadPhone = '+15005550431';
    const leadId = await addLead(ws, campaignId, leadPhone, { time_zone: openZone });
    // The campaign calls its only lead and completes: a promised callback still fires.
    expect((await platform.api.post(`/campaigns/${campaignId}/start`, ws.key, {})).status).toBe(200);
    await eventually(async () => ((await platform.api.get(`/campaigns/${campaignId}`, ws.key)).body.data.status === 'completed' ? true : undefined), 30_000, 'the campaign to complete');
    const leadCalls = (await platform.api.get(`/leads?campaign_id=${campaignId}`, ws.key)).body.data[0].call_ids as string[];
    expect(leadCalls).toHaveLength(1);

    const forLead = await schedule(ws, { lead_id: leadId, at: inMs(4_000) });
    const forNumber = await schedule(ws, { phone: '+15005550432', campaign_id: campaignId, at: inMs(4_000), time_zone: openZone, variables: { reason: 'billing' } });
    const cancelled = await schedule(ws, { phone: '+15005550433', campaign_id: campaignId, at: inMs(3_000), time_zone: openZone });
    expect((await platform.api.delete(`/callbacks/${cancelled.id}`, ws.key)).status).toBe(200);

    // Still scheduled, uncalled, before its time.
    expect(await callbackOf(ws, forLead.id)).toMatchObject({ status: 'scheduled', call_id: null });

    for (const callback of [forLead, forNumber]) {
      const done = await settled(ws, callback.id, `callback ${callback.id} to be called`);
      expect(done).toMatchObject({ status: 'completed', failure_reason: null, attempts: 1 });
      const calls = (await callbackCalls(ws)).get(callback.id) ?? [];
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ id: done.call_id, to: callback.phone, status: 'completed', metadata: { campaign_id: campaignId, callback_id: callback.id } });
      expect(Date.parse(calls[0]!.created_at)).toBeGreaterThanOrEqual(Date.parse(callback.at));
    }
    const call = (await platform.api.get(`/calls/${(await callbackOf(ws, forNumber.id)).call_id}`, ws.key)).body.data;
    expect(call.variables).toMatchObject({ reason: 'billing' });
    // The lead's callback lands on the lead.
    const lead = (await platform.api.get(`/leads?campaign_id=${campaignId}`, ws.key)).body.data[0];
    expect(lead).toMatchObject({ id: leadId, status: 'completed', attempts: 1, call_ids: [...leadCalls, (await callbackOf(ws, forLead.id)).call_id] });

    // Time enough for the cancelled one to have fired, were it going to.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await callbackOf(ws, cancelled.id)).toMatchObject({ status: 'cancelled', call_id: null, attempts: 0 });
    const calls = await callbackCalls(ws);
    expect(calls.has(cancelled.id)).toBe(false);
    expect([...calls.keys()].sort()).toEqual([forLead.id, forNumber.id].sort());
    // A callback that was placed is no longer cancellable.
    const placed = await platform.api.delete(`/callbacks/${forLead.id}`, ws.key);
    expectError(placed, 409, 'conflict');
    expect(placed.body.error.message).toContain('only a scheduled callback can be cancelled');
    expect(await callbackOf(ws, forLead.id)).toMatchObject({ status: 'completed' });
  }, 120_000);

  test('cancels racing the claim: each callback is either cancelled and never called, or called once', async () => {
    const ws = await ready();
    const campaignId = await createCampaign(ws);
    const expected = await platform.api.get(`/campaigns/${campaignId}`, ws.key);
    expect(expected.body.data.status).toBe('draft');
    // Draft campaigns hold their callbacks: start it so these fire.
    await addLead(ws, campaignId, '+15005550440', { time_zone: openZone });
    expect((await platform.api.post(`/campaigns/${campaignId}/start`, ws.key, {})).status).toBe(200);
    const at = inMs(3_000);
    const callbacks = await Promise.all(
      ['+15005550441', '+15005550442', '+15005550443', '+15005550444'].map((phone) => schedule(ws, { phone, campaign_id: campaignId, at, time_zone: openZone })),
    );
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(at) - Date.now())));
    const answers = await Promise.all(callbacks.map((callback) => platform.api.delete(`/callbacks/${callback.id}`, ws.key)));
    for (const [i, callback] of callbacks.entries()) {
      expect([200, 409]).toContain(answers[i]!.status);
      const done = await settled(ws, callback.id, `callback ${callback.id} to settle`);
      const calls = (await callbackCalls(ws)).get(callback.id) ?? [];
      if (answers[i]!.status === 200) {
        expect(done).toMatchObject({ status: 'cancelled', call_id: null });
        expect(calls).toHaveLength(0);
      } else {
        expectError(answers[i]!, 409, 'conflict');
        expect(done.status).toBe('completed');
        expect(calls.map((call) => call.id)).toEqual([done.call_id]);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const calls = await callbackCalls(ws);
    for (const [i, callback] of callbacks.entries()) expect(calls.get(callback.id)?.length ?? 0).toBe(answers[i]!.status === 200 ? 0 : 1);
  }, 120_000);

  test('a stopped campaign’s callback fails uncalled; a draft campaign’s waits past its time', async () => {
    const ws = await ready();
    const stoppedCampaign = await createCampaign(ws);
    await addLead(ws, stoppedCampaign, '+15005550451', { time_zone: closedZone });
    expect((await platform.api.post(`/campaigns/${stoppedCampaign}/start`, ws.key, {})).status).toBe(200);
    expect((await platform.api.post(`/campaigns/${stoppedCampaign}/stop`, ws.key, {})).status).toBe(200);
    const ofStopped = await schedule(ws, { phone: '+15005550452', campaign_id: stoppedCampaign, at: inMs(2_000), time_zone: openZone });
    const draftCampaign = await createCampaign(ws);
    const ofDraft = await schedule(ws, { phone: '+15005550453', campaign_id: draftCampaign, at: inMs(2_000), time_zone: openZone });

    expect(await settled(ws, ofStopped.id, 'the stopped campaign’s callback to fail')).toMatchObject({ status: 'failed', failure_reason: 'campaign_stopped', call_id: null, attempts: 0 });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(ofDraft.at) + 2_000 - Date.now())));
    expect(await callbackOf(ws, ofDraft.id)).toMatchObject({ status: 'scheduled', call_id: null, attempts: 0 });
    const calls = await callbackCalls(ws);
    expect(calls.has(ofStopped.id) || calls.has(ofDraft.id)).toBe(false);
    expectError(await platform.api.delete(`/callbacks/${ofStopped.id}`, ws.key), 409, 'conflict');
    expect((await platform.api.delete(`/callbacks/${ofDraft.id}`, ws.key)).status).toBe(200);
  }, 60_000);
});
