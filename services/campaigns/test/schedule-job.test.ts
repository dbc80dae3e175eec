// Schedules without the network: the contract's checks of a schedule (each refusal naming its field),
// the next occurrence across a change of offset, the draft/scheduled moves, and the dialer's schedule
// job over a real SQLite store and the in-process dial queue: a due occurrence starts the campaign
// once even when two dialers run the job at the same moment, a refused start (no lead, running
// already) skips that occurrence, and the schedule goes on.
import { createCampaignBodySchema } from '@voice/contracts/campaigns';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { validate } from '@voice/runtime/validation';
import { campaignScheduleJob } from '../src/dialer/schedule-job.js';
import { nextRunAt } from '../src/domain/schedule.js';
import { statusWithSchedule } from '../src/domain/states.js';
import { campaignRecord, leadRecord } from './store.contract.js';
import { openStoreWithQueue, type StoreWithQueue } from './store-with-queue.js';

const silent = createLogger({ service: 'test', level: 'silent' });
const base = { name: 'n', assistant_id: newId(), from_number_ids: [newId()] };

test('a schedule is a five-field cron expression that occurs, in an IANA zone; each refusal names its field', () => {
  const issues = (schedule: unknown) => {
    const checked = validate(createCampaignBodySchema, { ...base, schedule });
    return checked.ok ? [] : checked.issues.map((issue) => issue.field);
  };
  expect(issues({ cron: '0 9 * * 1-5', time_zone: 'America/New_York' })).toEqual([]);
  expect(issues({ cron: '@daily', time_zone: 'UTC' })).toEqual([]);
  expect(issues(null)).toEqual([]);
  expect(issues({ cron: '61 * * * *', time_zone: 'UTC' })).toEqual(['schedule.cron']);
  // Seconds are not a campaign's precision.
  expect(issues({ cron: '* * * * * *', time_zone: 'UTC' })).toEqual(['schedule.cron']);
  expect(issues({ cron: '0 0 30 2 *', time_zone: 'UTC' })).toEqual(['schedule.cron']);
  expect(issues({ cron: '', time_zone: 'UTC' })).toEqual(['schedule.cron']);
  expect(issues({ cron: '0 9 * * *', time_zone: 'Mars/Olympus' })).toEqual(['schedule.time_zone']);
  expect(issues({ cron: '0 9 * * *' })).toEqual(['schedule.time_zone']);
  expect(issues({ cron: '0 9 * * *', time_zone: 'UTC', every: 'day' })).toEqual(['schedule.every']);
});

test('the next run is read in the schedule’s zone, across a change of offset', () => {
  const schedule = { cron: '0 9 * * *', time_zone: 'America/New_York' };
  // 09:00 in New York is 14:00 UTC before the spring change (8 March 2026) and 13:00 after.
  expect(nextRunAt(schedule, new Date('2026-03-07T15:00:00Z'))).toBe('2026-03-08T13:00:00.000Z');
  expect(nextRunAt(schedule, new Date('2026-03-06T15:00:00Z'))).toBe('2026-03-07T14:00:00.000Z');
  expect(nextRunAt(null, new Date())).toBeNull();
});

test('a draft with a schedule is scheduled and back; every other state keeps its own', () => {
  expect(statusWithSchedule('draft', true)).toBe('scheduled');
  expect(statusWithSchedule('scheduled', false)).toBe('draft');
  expect(statusWithSchedule('scheduled', true)).toBe('scheduled');
  expect(statusWithSchedule('draft', false)).toBe('draft');
  for (const status of ['running', 'paused', 'stopped', 'completed'] as const) {
    expect(statusWithSchedule(status, true)).toBe(status);
    expect(statusWithSchedule(status, false)).toBe(status);
  }
});

describe('the schedule job', () => {
  let opened: StoreWithQueue;
  let store: StoreWithQueue['store'];
  let queue: StoreWithQueue['queue'];
  const now = new Date('2026-11-24T09:00:30.000Z');
  const schedule = { cron: '0 9 * * *', time_zone: 'UTC' };
  const due = '2026-11-24T09:00:00.000Z';
  const following = '2026-11-25T09:00:00.000Z';

  beforeEach(async () => {
    opened = await openStoreWithQueue('campaigns-schedules');
    ({ store, queue } = opened);
  });
  afterEach(() => opened.close());

  const scheduled = async (status: 'scheduled' | 'running' | 'stopped', leads: number) => {
    const campaign = campaignRecord(newId(), { status, nextRunAt: due, startedAt: status === 'scheduled' ? null : '2026-11-23T09:00:00.000Z' });
    campaign.settings.schedule = schedule;
    await store.insertCampaign(campaign);
    await store.insertLeads(Array.from({ length: leads }, () => leadRecord(campaign)));
    return campaign;
  };
  const job = () => campaignScheduleJob({ store, dialQueue: queue, now: () => now, logger: silent });
  const run = { now, signal: new AbortController().signal, batchSize: 500 };

  test('two dialers running the job at once start a due campaign once, and its next run moves on', async () => {
    const campaign = await scheduled('scheduled', 2);
    const fired = await Promise.all([job().run(run), job().run(run)]);
    expect(fired.reduce((sum, count) => sum + count, 0)).toBe(1);
    const started = await store.getCampaign(campaign.workspaceId, campaign.id);
    expect(started).toMatchObject({ status: 'running', startedAt: now.toISOString(), nextRunAt: following, revision: 2 });
    expect(await job().run(run)).toBe(0);
  });

  test('an occurrence that finds no lead to call, or the campaign running, is skipped; a stopped one starts again', async () => {
    const empty = await scheduled('scheduled', 0);
    const running = await scheduled('running', 1);
    const stopped = await scheduled('stopped', 1);
    expect(await job().run(run)).toBe(3);
    expect(await store.getCampaign(empty.workspaceId, empty.id)).toMatchObject({ status: 'scheduled', nextRunAt: following, revision: 1 });
    expect(await store.getCampaign(running.workspaceId, running.id)).toMatchObject({ status: 'running', startedAt: running.startedAt, nextRunAt: following, revision: 1 });
    expect(await store.getCampaign(stopped.workspaceId, stopped.id)).toMatchObject({ status: 'running', startedAt: now.toISOString(), nextRunAt: following });
  });
});
