// Campaign schedules through the gateway: a schedule (cron and time zone) is checked field by field,
// makes a draft `scheduled` (and removing it a draft again) with its `next_run_at`, keeps every 409 of
// the state machine, and at its time starts the campaign as `POST /campaigns/{id}/start` does: its
// leads are called; an occurrence finding no lead to call, or the campaign running, is skipped, and
// the schedule goes on. The dialer checks the schedules on a lease (runs on the cluster topology too).
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { callingWorkspace, dayWindow } from './support/campaigns.js';
import { eventually } from './support/telephony.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ VOICE_NUMBER_MONTHLY_CREDITS: '0' });
});
afterAll(() => platform.close());

const ready = () => callingWorkspace(platform, { credits: '20.0000', minutes: '0' });
type Ready = Awaited<ReturnType<typeof ready>>;

const everyMinute = { cron: '* * * * *', time_zone: 'America/New_York' };

async function createCampaign(ws: Ready, settings: Record<string, unknown>) {
  const created = await platform.api.post('/campaigns', ws.key, { name: 'Scheduled', assistant_id: ws.assistantId, from_number_ids: [ws.number.id], window: dayWindow('open'), ...settings });
  expect(created.status).toBe(201);
  return created.body.data as { id: string; status: string; revision: number; next_run_at: string | null; schedule: unknown; started_at: string | null };
}

const campaignOf = async (ws: Ready, id: string) => (await platform.api.get(`/campaigns/${id}`, ws.key)).body.data;

/** The next whole minute after `at`, as an ISO time. */
const nextMinute = (at: number): string => new Date(Math.floor(at / 60_000) * 60_000 + 60_000).toISOString();

test('a schedule is checked field by field, moves a draft to scheduled and back, and keeps every 409', async () => {
  const ws = await ready();
  const refused = async (schedule: unknown) => {
    const answer = await platform.api.post('/campaigns', ws.key, { name: 'Bad', assistant_id: ws.assistantId, from_number_ids: [ws.number.id], schedule });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_request');
    return JSON.stringify(answer.body.error);
  };
  expect(await refused({ cron: '0 25 * * *', time_zone: 'UTC' })).toContain('schedule.cron');
  expect(await refused({ cron: '0 0 31 2 *', time_zone: 'UTC' })).toContain('never occurs');
  expect(await refused({ cron: '0 9 * * *', time_zone: 'Europe/Atlantis' })).toContain('schedule.time_zone');
  expect((await platform.api.get('/campaigns?limit=200', ws.key)).body.meta.pagination.total).toBe(0);

  const before = Date.now();
  const scheduled = await createCampaign(ws, { schedule: everyMinute });
  expect(scheduled).toMatchObject({ status: 'scheduled', schedule: everyMinute, started_at: null });
  expect([nextMinute(before), nextMinute(Date.now())]).toContain(scheduled.next_run_at);
  expect((await platform.api.get('/campaigns?status=scheduled', ws.key)).body.data.map((c: { id: string }) => c.id)).toEqual([scheduled.id]);
  // Not running: stop is 409; without a lead, start is 409.
  expect((await platform.api.post(`/campaigns/${scheduled.id}/stop`, ws.key, {})).status).toBe(409);
  expect((await platform.api.post(`/campaigns/${scheduled.id}/start`, ws.key, {})).status).toBe(409);

  const unscheduled = await platform.api.patch(`/campaigns/${scheduled.id}`, ws.key, { schedule: null, expected_revision: scheduled.revision });
  expect(unscheduled.status).toBe(200);
  expect(unscheduled.body.data).toMatchObject({ status: 'draft', schedule: null, next_run_at: null });
  const daily = { cron: '0 9 * * 1-5', time_zone: 'Asia/Tokyo' };
  const rescheduled = await platform.api.patch(`/campaigns/${scheduled.id}`, ws.key, { schedule: daily, expected_revision: unscheduled.body.data.revision });
  expect(rescheduled.body.data).toMatchObject({ status: 'scheduled', schedule: daily });
  // 09:00 in Tokyo is 00:00 UTC, on a weekday there.
  const next = new Date(rescheduled.body.data.next_run_at as string);
  expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([0, 0]);
  expect(next.getTime()).toBeGreaterThan(Date.now());
  expect([1, 2, 3, 4, 5]).toContain(new Date(next.getTime() + 9 * 3600_000).getUTCDay());
  const invalid = await platform.api.patch(`/campaigns/${scheduled.id}`, ws.key, { schedule: { cron: 'every day', time_zone: 'UTC' }, expected_revision: rescheduled.body.data.revision });
  expect(invalid.status).toBe(400);
  expect(JSON.stringify(invalid.body.error)).toContain('schedule.cron');

  // Started by hand it runs; a running campaign takes no schedule change, and stops as any does.
  expect((await platform.api.post(`/campaigns/${scheduled.id}/leads`, ws.key, { phone: '+15005550601' })).status).toBe(201);
  const closedWindow = await platform.api.patch(`/campaigns/${scheduled.id}`, ws.key, { window: dayWindow('closed'), expected_revision: rescheduled.body.data.revision });
  expect(closedWindow.status).toBe(200);
  const started = await platform.api.post(`/campaigns/${scheduled.id}/start`, ws.key, {});
  expect(started.status).toBe(200);
  expect(started.body.data).toMatchObject({ status: 'running', schedule: daily, next_run_at: rescheduled.body.data.next_run_at });
  const whileRunning = await platform.api.patch(`/campaigns/${scheduled.id}`, ws.key, { schedule: null, expected_revision: started.body.data.revision });
  expect(whileRunning.status).toBe(409);
  expect(whileRunning.body.error.code).toBe('conflict');
  expect(whileRunning.body.error.message).toContain('schedule');
  expect(await campaignOf(ws, scheduled.id)).toMatchObject({ status: 'running', schedule: daily, revision: started.body.data.revision, next_run_at: started.body.data.next_run_at });
  expect((await platform.api.post(`/campaigns/${scheduled.id}/start`, ws.key, {})).status).toBe(409);
  const stopped = await platform.api.post(`/campaigns/${scheduled.id}/stop`, ws.key, {});
  expect(stopped.body.data).toMatchObject({ status: 'stopped', next_run_at: rescheduled.body.data.next_run_at });
  // A stopped campaign keeps its state when its schedule changes.
  const cleared = await platform.api.patch(`/campaigns/${scheduled.id}`, ws.key, { schedule: null, expected_revision: stopped.body.data.revision });
  expect(cleared.body.data).toMatchObject({ status: 'stopped', next_run_at: null });

  // Another workspace's campaign is 404.
  const other = await platform.workspace({ plan: 'pro' });
  expect((await platform.api.patch(`/campaigns/${scheduled.id}`, other.key, { schedule: everyMinute, expected_revision: 1 })).status).toBe(404);
}, 60_000);

test('a schedule with a part missing or wrong, or on a stale revision, is refused and changes nothing', async () => {
  const ws = await ready();
  const base = { name: 'Bad', assistant_id: ws.assistantId, from_number_ids: [ws.number.id] };
  const invalid: [unknown, string][] = [
    [{ cron: '0 9 * * *' }, 'schedule.time_zone'],
    [{ cron: '0 9 * * *', time_zone: '' }, 'schedule.time_zone'],
    [{ time_zone: 'UTC' }, 'schedule.cron'],
    [{ cron: '   ', time_zone: 'UTC' }, 'schedule.cron'],
    [{ cron: '0 9 * * * *', time_zone: 'UTC' }, 'schedule.cron'],
    [{ cron: '0 9 * * *', time_zone: 'UTC', every: 'day' }, 'every'],
    ['daily', 'schedule'],
  ];
  for (const [schedule, field] of invalid) {
    const answer = await platform.api.post('/campaigns', ws.key, { ...base, schedule });
    expect({ status: answer.status, code: answer.body.error?.code }).toEqual({ status: 400, code: 'invalid_request' });
    expect(JSON.stringify(answer.body.error)).toContain(field);
  }
  expect((await platform.api.get('/campaigns?limit=200', ws.key)).body.meta.pagination.total).toBe(0);

  const daily = { cron: '0 9 * * 1-5', time_zone: 'Asia/Tokyo' };
  const scheduled = await createCampaign(ws, { schedule: daily });
  for (const [schedule, field] of invalid) {
    const answer = await platform.api.patch(`/campaigns/${scheduled.id}`, ws.key, { schedule, expected_revision: scheduled.revision });
    expect({ status: answer.status, code: answer.body.error?.code }).toEqual({ status: 400, code: 'invalid_request' });
    expect(JSON.stringify(answer.body.error)).toContain(field);
  }
  const stale = await platform.api.patch(`/campaigns/${scheduled.id}`, ws.key, { schedule: null, expected_revision: scheduled.revision + 1 });
  expect({ status: stale.status, code: stale.body.error?.code }).toEqual({ status: 409, code: 'revision_conflict' });
  expect(await campaignOf(ws, scheduled.id)).toMatchObject({ status: 'scheduled', schedule: daily, revision: scheduled.revision, next_run_at: scheduled.next_run_at });
}, 60_000);

test('at its time the schedule starts the campaign and its leads are called; occurrences without leads or while running are skipped', async () => {
  // Set up well inside a minute, so no occurrence comes between a campaign's creation and its manual start.
  while (new Date().getUTCSeconds() > 40) await new Promise((resolve) => setTimeout(resolve, 500));
  const ws = await ready();
  const withLeads = await createCampaign(ws, { schedule: everyMinute, pacing: { max_concurrent: 3, calls_per_minute: 600 } });
  const phones = ['+15005550611', '+15005550612', '+15005550613'];
  for (const phone of phones) expect((await platform.api.post(`/campaigns/${withLeads.id}/leads`, ws.key, { phone })).status).toBe(201);
  const withoutLeads = await createCampaign(ws, { schedule: everyMinute });
  const running = await createCampaign(ws, { schedule: everyMinute, window: dayWindow('closed') });
  expect((await platform.api.post(`/campaigns/${running.id}/leads`, ws.key, { phone: '+15005550614' })).status).toBe(201);
  const runningStart = await platform.api.post(`/campaigns/${running.id}/start`, ws.key, {});
  expect(runningStart.status).toBe(200);
  const occurrence = withLeads.next_run_at!;
  expect(Date.parse(occurrence)).toBeGreaterThan(Date.now());

  const started = await eventually(async () => {
    const campaign = await campaignOf(ws, withLeads.id);
    return campaign.started_at ? campaign : undefined;
  }, 80_000, 'the schedule to start the campaign');
  expect(Date.parse(started.started_at)).toBeGreaterThanOrEqual(Date.parse(occurrence));
  expect(Date.parse(started.next_run_at)).toBeGreaterThan(Date.parse(occurrence));
  await eventually(async () => ((await campaignOf(ws, withLeads.id)).status === 'completed' ? true : undefined), 30_000, 'the scheduled run to complete');
  const leads = (await platform.api.get(`/campaigns/${withLeads.id}/leads`, ws.key)).body.data as { phone: string; status: string; attempts: number }[];
  expect(leads.map((lead) => [lead.phone, lead.status, lead.attempts]).sort()).toEqual(phones.map((phone) => [phone, 'completed', 1]));

  // The same occurrence passed the other two by: each kept its state, and its schedule moved on.
  const empty = await eventually(async () => {
    const campaign = await campaignOf(ws, withoutLeads.id);
    return Date.parse(campaign.next_run_at) > Date.parse(occurrence) ? campaign : undefined;
  }, 20_000, 'the empty campaign’s occurrence to pass');
  expect(empty).toMatchObject({ status: 'scheduled', started_at: null, revision: withoutLeads.revision });
  const stillRunning = await eventually(async () => {
    const campaign = await campaignOf(ws, running.id);
    return Date.parse(campaign.next_run_at) > Date.parse(occurrence) ? campaign : undefined;
  }, 20_000, 'the running campaign’s occurrence to pass');
  expect(stillRunning).toMatchObject({ status: 'running', started_at: runningStart.body.data.started_at });
  expect((await platform.api.post(`/campaigns/${running.id}/stop`, ws.key, {})).status).toBe(200);
}, 150_000);
