// The due-callbacks job over a real SQLite store and the in-process callback queue: it enqueues the
// callbacks due within the enqueue horizon and the claimed ones whose call was never recorded (a lost
// job is recovered), never one far ahead or settled, and a second run adds nothing the queue holds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessEventStream, jobDone, type Consumption } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { callbackEnqueueAheadMs, openCallbackQueue, type CallbackJob, type CallbackQueue } from '../src/dialer/callback-job.js';
import { callbackScanJob } from '../src/dialer/callback-scan-job.js';
import { SqliteCampaignStore } from '../src/store/sqlite.js';
import { callbackRecord } from './callbacks.contract.js';

const silent = createLogger({ service: 'test', level: 'silent' });
const now = new Date('2026-11-24T12:00:00.000Z');
const run = { now, signal: new AbortController().signal, batchSize: 500 };
const inMs = (ms: number) => new Date(now.getTime() + ms).toISOString();

let dir: string;
let store: SqliteCampaignStore;
let events: InProcessEventStream;
let queue: CallbackQueue;
let worker: Consumption | undefined;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'campaigns-callback-scan-'));
  store = new SqliteCampaignStore(join(dir, 'campaigns.sqlite'));
  events = new InProcessEventStream(silent);
  queue = await openCallbackQueue(events, silent);
});
afterEach(async () => {
  await worker?.stop();
  await events.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('due and lost callbacks are enqueued once; later and settled ones are not', async () => {
  const workspace = newId();
  const overdue = callbackRecord(workspace, { at: inMs(-60_000) });
  const dueSoon = callbackRecord(workspace, { at: inMs(callbackEnqueueAheadMs - 1_000) });
  const lostClaim = callbackRecord(workspace, { at: inMs(-5_000), status: 'dialing', attempts: 1 });
  const later = callbackRecord(workspace, { at: inMs(callbackEnqueueAheadMs + 60_000) });
  const placed = callbackRecord(workspace, { at: inMs(-5_000), status: 'dialing', attempts: 1, callId: newId() });
  const cancelled = callbackRecord(workspace, { at: inMs(-5_000), status: 'cancelled' });
  for (const callback of [overdue, dueSoon, lostClaim, later, placed, cancelled]) await store.callbacks.insertCallback(callback);

  const job = callbackScanJob({ store, queue });
  expect(await job.run(run)).toBe(3);
  expect(await job.run(run)).toBe(0);

  const taken: CallbackJob[] = [];
  worker = await queue.work(async (callback) => {
    taken.push(callback);
    return jobDone;
  });
  const deadline = Date.now() + 5_000;
  while (taken.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(taken.map((callback) => callback.callback).sort()).toEqual([overdue.id, dueSoon.id, lostClaim.id].sort());
  expect(taken.every((callback) => callback.workspace === workspace)).toBe(true);
});
