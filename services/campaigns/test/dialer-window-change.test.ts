// A running campaign's window changed mid-run, at the dialer over a real SQLite store, the in-process
// dial queue and a clock the test sets: its leads' jobs enqueued again are new to the queue (the
// window's version is in their id, a change of name or pacing makes none), the new job calls the lead in the new window, and the job put
// off until the old window opened finds the lead claimed, then done, and is dropped without a second
// call; a job that read the lead before another job of its attempt claimed it leaves that call's slot.
import { jobDone, jobLater } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { callSlotGroup, callSlotHolder } from '../src/dialer/call-slots.js';
import type { DialJob } from '../src/dialer/dial-job.js';
import { enqueueCallableLeads } from '../src/dialer/enqueue-leads.js';
import type { CampaignRecord } from '../src/store/store.js';
import { dialersOver, readingEarlier } from './dialers.js';
import { campaignRecord, leadRecord } from './store.contract.js';
import { openStoreWithQueue, type StoreWithQueue } from './store-with-queue.js';

/** A Monday at 11:00 in Berlin. */
let clock = Date.parse('2026-11-23T10:00:00.000Z');
const now = () => new Date(clock);
const startedAt = '2026-11-23T09:00:00.000Z';
/** Evenings in Berlin: closed at 11:00, open at 18:00 (17:00Z), seven hours on. */
const eveningWindow = { days: ['mon', 'tue', 'wed', 'thu', 'fri'] as const, start: '18:00', end: '20:00', time_zone: 'Europe/Berlin' };
const opensInMs = 7 * 3600_000;
const dayWindow = { ...eveningWindow, start: '09:00', end: '17:00' };

let opened: StoreWithQueue;
let store: StoreWithQueue['store'];
let queue: StoreWithQueue['queue'];

beforeEach(async () => {
  clock = Date.parse('2026-11-23T10:00:00.000Z');
  opened = await openStoreWithQueue('campaigns-window-change');
  ({ store, queue } = opened);
});
afterEach(() => opened.close());

async function runningInTheEvening(numberId: (workspace: string) => string) {
  const base = campaignRecord(newId(), { status: 'running', startedAt });
  const campaign: CampaignRecord = { ...base, settings: { ...base.settings, from_number_ids: [numberId(base.workspaceId)], window: { ...eveningWindow, days: [...eveningWindow.days] } } };
  await store.insertCampaign(campaign);
  // Without a zone of its own: the window's decides.
  const lead = leadRecord(campaign, { timeZone: null });
  await store.insertLeads([lead]);
  const job: DialJob = { workspace: campaign.workspaceId, campaign: campaign.id, lead: lead.id, attempt: 1, run: startedAt };
  return { campaign, lead, job };
}

async function withWindow(campaign: CampaignRecord, window: typeof dayWindow): Promise<CampaignRecord> {
  const outcome = await store.updateCampaign(campaign.workspaceId, campaign.id, campaign.revision, { settings: { ...campaign.settings, window: { ...window, days: [...window.days] } } }, now().toISOString(), []);
  if (outcome.kind !== 'updated') throw new Error(`the window change was ${outcome.kind}`);
  return outcome.record;
}

test('a window changed mid-run: the lead enqueued again is called in the new window; the job put off until the old one opened is dropped', async () => {
  const { peers, calls, callSlots, leadDialer } = dialersOver(store, now);
  const dialer = leadDialer();
  const { campaign, lead, job } = await runningInTheEvening((workspace) => peers.addNumber(workspace));
  expect(await enqueueCallableLeads(store, queue, campaign)).toBe(1);
  expect(await enqueueCallableLeads(store, queue, campaign)).toBe(0);
  // The evening window is closed: the job waits until it opens.
  expect(await dialer.handle(job)).toEqual(jobLater(opensInMs));

  const changed = await withWindow(campaign, dayWindow);
  // Under the new window the lead's job is new to the queue, which still holds the one put off.
  expect(await enqueueCallableLeads(store, queue, changed)).toBe(1);
  expect(await enqueueCallableLeads(store, queue, changed)).toBe(0);
  expect(await dialer.handle(job)).toEqual(jobDone);
  expect(await store.getLead(lead.workspaceId, lead.id)).toMatchObject({ status: 'calling', attempts: 1, callIds: [expect.any(String)] });
  expect(calls.placed.map((call) => call.idempotencyKey)).toEqual([`campaign-dial-${lead.id}-1`]);

  // The old opening comes while the call still runs: the job put off finds the lead claimed, and its slot stays the call's.
  clock += opensInMs;
  expect(await dialer.handle(job)).toEqual(jobDone);
  expect(calls.placed).toHaveLength(1);
  expect(await callSlots.holders(callSlotGroup(campaign.workspaceId, campaign.id))).toEqual([callSlotHolder(lead.id, 1)]);
  // Or later, the lead done.
  await store.transitionLead(lead.workspaceId, lead.id, { statuses: ['calling'], attempts: 1 }, { status: 'completed' }, now().toISOString());
  expect(await dialer.handle(job)).toEqual(jobDone);
  expect(calls.placed).toHaveLength(1);
});

test('a change of name or pacing mid-run makes no new job: the queue keeps the one it holds', async () => {
  const { peers } = dialersOver(store, now);
  const { campaign } = await runningInTheEvening((workspace) => peers.addNumber(workspace));
  expect(await enqueueCallableLeads(store, queue, campaign)).toBe(1);
  const outcome = await store.updateCampaign(
    campaign.workspaceId,
    campaign.id,
    campaign.revision,
    { settings: { ...campaign.settings, name: 'Renamed', pacing: { ...campaign.settings.pacing, calls_per_minute: 1 } } },
    now().toISOString(),
    [],
  );
  if (outcome.kind !== 'updated') throw new Error(`the change was ${outcome.kind}`);
  expect(outcome.record.revision).toBe(campaign.revision + 1);
  expect(await enqueueCallableLeads(store, queue, outcome.record)).toBe(0);
});

test('a job that read the lead before another job of its attempt claimed it dials nothing and leaves that call its slot', async () => {
  const { peers, calls, callSlots, leadDialer } = dialersOver(store, now);
  const base = await runningInTheEvening((workspace) => peers.addNumber(workspace));
  const campaign = await withWindow(base.campaign, dayWindow);
  const { lead, job } = base;
  const unclaimed = await store.getLead(lead.workspaceId, lead.id);

  expect(await leadDialer().handle(job)).toEqual(jobDone);
  // The stale job enqueued before the window changed, and the new one, both read the lead pending.
  expect(await leadDialer(readingEarlier(store, unclaimed)).handle(job)).toEqual(jobDone);
  expect(calls.placed).toHaveLength(1);
  expect(await store.getLead(lead.workspaceId, lead.id)).toMatchObject({ status: 'calling', attempts: 1, callIds: [expect.any(String)] });
  expect(await callSlots.holders(callSlotGroup(campaign.workspaceId, campaign.id))).toEqual([callSlotHolder(lead.id, 1)]);
});
