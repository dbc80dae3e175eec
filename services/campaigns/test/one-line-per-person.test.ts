// One call at a time to a person, across a lead's own dial and its callback, at the dialers over a
// real SQLite store on a set clock: each dialer takes the person's line before its claim, so one
// stopped between its checks and its claim (held at its suppression check) makes the other wait,
// whichever comes first; the call's end gives the line back and the other rings then. Before the
// line, each dialer's check of the other ("no callback dialing", "the lead not calling") passed in
// that moment and both rang.
import { CallStatus } from '@voice/proto/voice/calls/v1/calls';
import { jobDone, jobLater } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { applyCallEnd } from '../src/dialer/call-outcomes.js';
import { callSlotHolder, lineGroup, callbackSlotHolder } from '../src/dialer/call-slots.js';
import { applyCallbackCallEnd } from '../src/dialer/callback-outcomes.js';
import { concurrencyRecheckMs } from '../src/dialer/dial-gate.js';
import type { DialJob } from '../src/dialer/dial-job.js';
import { callbackRecord } from './callbacks.contract.js';
import { dialersOver } from './dialers.js';
import { campaignRecord, leadRecord } from './store.contract.js';
import { openStoreWithQueue, type StoreWithQueue } from './store-with-queue.js';

/** A Monday at 11:00 in Berlin: inside the window campaignRecord sets and the calling hours. */
const now = () => new Date('2026-11-23T10:00:00.000Z');
const startedAt = '2026-11-23T09:00:00.000Z';

let opened: StoreWithQueue;
beforeEach(async () => {
  opened = await openStoreWithQueue('campaigns-one-line');
});
afterEach(() => opened.close());

/** A running campaign's lead, due, and a callback of it, due a minute ago; both dialers. */
async function leadWithCallback() {
  const { store } = opened;
  const dialers = dialersOver(store, now);
  const base = campaignRecord(newId(), { status: 'running', startedAt });
  const campaign = { ...base, settings: { ...base.settings, from_number_ids: [dialers.peers.addNumber(base.workspaceId)] } };
  await store.insertCampaign(campaign);
  const lead = leadRecord(campaign, { timeZone: null });
  await store.insertLeads([lead]);
  const callback = callbackRecord(campaign.workspaceId, { campaignId: campaign.id, leadId: lead.id, phone: lead.phone, timeZone: null, at: new Date(now().getTime() - 60_000).toISOString() });
  await store.callbacks.insertCallback(callback);
  const leadJob: DialJob = { workspace: campaign.workspaceId, campaign: campaign.id, lead: lead.id, attempt: 1, run: startedAt };
  const callbackJob = { workspace: campaign.workspaceId, callback: callback.id };
  const line = () => dialers.callSlots.holders(lineGroup(campaign.workspaceId, lead.phone));
  const ended = { status: CallStatus.COMPLETED, endReason: 'hangup', to: lead.phone };
  const outcomeDeps = { store, queue: opened.queue, callSlots: dialers.callSlots, now, wakeRelay: () => undefined, logger: createLogger({ service: 'test', level: 'silent' }) };
  return { ...dialers, campaign, lead, callback, leadJob, callbackJob, line, ended, outcomeDeps };
}

test('a callback due while the lead’s own dial is between its checks and its claim waits for that call to end', async () => {
  const { store } = opened;
  const { peers, calls, leadDialer, callbackDialer, lead, callback, leadJob, callbackJob, line, ended, outcomeDeps } = await leadWithCallback();

  const paused = peers.pauseNextCheck();
  const leadDial = leadDialer().handle(leadJob);
  await paused.reached;
  expect(await callbackDialer.handle(callbackJob)).toEqual(jobLater(concurrencyRecheckMs));
  paused.resume();
  expect(await leadDial).toEqual(jobDone);

  expect(calls.placed.map((call) => call.idempotencyKey)).toEqual([`campaign-dial-${lead.id}-1`]);
  expect(await store.callbacks.getCallback(callback.workspaceId, callback.id)).toMatchObject({ status: 'scheduled', attempts: 0, callId: null });
  expect(await line()).toEqual([callSlotHolder(lead.id, 1)]);
  // While the lead's call rings, the callback still waits.
  expect(await callbackDialer.handle(callbackJob)).toEqual(jobLater(concurrencyRecheckMs));

  const { callIds } = (await store.getLead(lead.workspaceId, lead.id))!;
  await applyCallEnd(outcomeDeps, lead.workspaceId, { ...ended, id: callIds[0]!, metadata: calls.placed[0]!.metadata });
  expect(await line()).toEqual([]);
  expect(await callbackDialer.handle(callbackJob)).toEqual(jobDone);
  expect(calls.placed.map((call) => call.idempotencyKey)).toEqual([`campaign-dial-${lead.id}-1`, `campaign-callback-${callback.id}`]);
});

test('a lead due while its callback is between its checks and its claim waits for that call to end', async () => {
  const { store } = opened;
  const { peers, calls, leadDialer, callbackDialer, lead, callback, leadJob, callbackJob, line, ended, outcomeDeps } = await leadWithCallback();

  const paused = peers.pauseNextCheck();
  const callbackDial = callbackDialer.handle(callbackJob);
  await paused.reached;
  expect(await leadDialer().handle(leadJob)).toEqual(jobLater(concurrencyRecheckMs));
  paused.resume();
  expect(await callbackDial).toEqual(jobDone);

  expect(calls.placed.map((call) => call.idempotencyKey)).toEqual([`campaign-callback-${callback.id}`]);
  expect(await store.getLead(lead.workspaceId, lead.id)).toMatchObject({ status: 'pending', attempts: 0, callIds: [] });
  expect(await line()).toEqual([callbackSlotHolder(callback.id)]);
  expect(await leadDialer().handle(leadJob)).toEqual(jobLater(concurrencyRecheckMs));

  const { callId } = (await store.callbacks.getCallback(callback.workspaceId, callback.id))!;
  // No one answered: the lead is still to be called by its campaign.
  await applyCallbackCallEnd(outcomeDeps, callback.workspaceId, { ...ended, status: CallStatus.NO_ANSWER, id: callId!, metadata: calls.placed[0]!.metadata });
  expect(await line()).toEqual([]);
  expect(await leadDialer().handle(leadJob)).toEqual(jobDone);
  expect(calls.placed.map((call) => call.idempotencyKey)).toEqual([`campaign-callback-${callback.id}`, `campaign-dial-${lead.id}-1`]);
});
