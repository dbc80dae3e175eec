// The dialer's recovery job over a real SQLite store and the in-process dial queue: it enqueues the
// callable leads of running campaigns only (pending, retry_scheduled, and a claimed lead whose call was
// never recorded, for that same attempt), and a second run adds nothing the queue holds already.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessEventStream, jobDone, type Consumption } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { openDialQueue, type DialJob, type DialQueue } from '../src/dialer/dial-job.js';
import { dialRecoveryJob } from '../src/dialer/recovery-job.js';
import { SqliteCampaignStore } from '../src/store/sqlite.js';
import { campaignRecord, leadRecord } from './store.contract.js';

const silent = createLogger({ service: 'test', level: 'silent' });
const run = { now: new Date(), signal: new AbortController().signal, batchSize: 500 };

let dir: string;
let store: SqliteCampaignStore;
let events: InProcessEventStream;
let queue: DialQueue;
let worker: Consumption | undefined;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'campaigns-recovery-'));
  store = new SqliteCampaignStore(join(dir, 'campaigns.sqlite'));
  events = new InProcessEventStream(silent);
  queue = await openDialQueue(events, silent);
});
afterEach(async () => {
  await worker?.stop();
  await events.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the callable leads of running campaigns are enqueued once, for the attempt each is due', async () => {
  const workspace = newId();
  const startedAt = '2026-11-24T10:00:00.000Z';
  const running = campaignRecord(workspace, { status: 'running', startedAt });
  const stopped = campaignRecord(workspace, { status: 'stopped', startedAt });
  await store.insertCampaign(running);
  await store.insertCampaign(stopped);
  const pending = [leadRecord(running), leadRecord(running)];
  const retry = leadRecord(running, { status: 'retry_scheduled', attempts: 1, callIds: ['call-a'] });
  const unfinished = leadRecord(running, { status: 'calling', attempts: 2, callIds: ['call-b'] });
  const inCall = leadRecord(running, { status: 'calling', attempts: 1, callIds: ['call-c'] });
  const done = leadRecord(running, { status: 'completed', attempts: 1, callIds: ['call-d'] });
  await store.insertLeads([...pending, retry, unfinished, inCall, done, leadRecord(stopped)]);

  const job = dialRecoveryJob({ store, queue });
  expect(await job.run(run)).toBe(4);
  expect(await job.run(run)).toBe(0);

  const taken: DialJob[] = [];
  worker = await queue.work(async (dial) => {
    taken.push(dial);
    return jobDone;
  });
  const deadline = Date.now() + 5_000;
  while (taken.length < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 200));
  const expected = (lead: { id: string }, attempt: number): DialJob => ({ workspace, campaign: running.id, lead: lead.id, attempt, run: startedAt });
  expect([...taken].sort((a, b) => a.lead.localeCompare(b.lead))).toEqual(
    [expected(pending[0]!, 1), expected(pending[1]!, 1), expected(retry, 2), expected(unfinished, 2)].sort((a, b) => a.lead.localeCompare(b.lead)),
  );
});

test('after a run was swept whole, a pass publishes only the leads whose job may be lost: retries, unfinished claims, leads added since the start', async () => {
  const workspace = newId();
  const startedAt = '2026-11-24T10:00:00.000Z';
  const running = campaignRecord(workspace, { status: 'running', startedAt });
  await store.insertCampaign(running);
  const before = { createdAt: '2026-11-24T09:00:00.000Z', updatedAt: '2026-11-24T09:00:00.000Z' };
  const pendingAtStart = [leadRecord(running, before), leadRecord(running, before), leadRecord(running, before)];
  await store.insertLeads(pendingAtStart);
  const published: string[] = [];
  const counted = Object.create(queue) as DialQueue;
  counted.enqueue = (job, jobId) => {
    published.push(job.lead);
    return queue.enqueue(job, jobId);
  };
  const job = dialRecoveryJob({ store, queue: counted });
  const at = (time: string) => ({ ...run, now: new Date(time) });

  // The first pass sweeps the run whole: its start may have stopped before its jobs.
  expect(await job.run(at('2026-11-24T10:05:00.000Z'))).toBe(3);
  expect(published).toHaveLength(3);

  const retry = leadRecord(running, { ...before, status: 'retry_scheduled', attempts: 1, callIds: ['call-a'] });
  const unfinished = leadRecord(running, { ...before, status: 'calling', attempts: 1, callIds: [] });
  const inCall = leadRecord(running, { ...before, status: 'calling', attempts: 1, callIds: ['call-c'] });
  const addedWhileRunning = leadRecord(running, { createdAt: '2026-11-24T10:07:00.000Z', updatedAt: '2026-11-24T10:07:00.000Z' });
  await store.insertLeads([retry, unfinished, inCall, addedWhileRunning]);
  published.length = 0;
  expect(await job.run(at('2026-11-24T10:10:00.000Z'))).toBe(3);
  expect([...published].sort()).toEqual([retry.id, unfinished.id, addedWhileRunning.id].sort());

  // A day on, the run is swept whole again: a job that waited beyond the queue's limits is back.
  published.length = 0;
  expect(await job.run(at('2026-11-25T10:06:00.000Z'))).toBe(0);
  expect([...published].sort()).toEqual([...pendingAtStart.map((lead) => lead.id), retry.id, unfinished.id, addedWhileRunning.id].sort());
});
