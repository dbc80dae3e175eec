// The callbacks' dialer at its time, over a real SQLite store and the call placer speaking Connect to
// a calls service that answers as the real one does, on a clock the test sets (what the end-to-end
// suite cannot move): a callback held 24 hours past its time fails as expired, uncalled; a paused
// campaign holds it until it runs again; a call the wallet cannot fund puts it back, its try counted,
// and leaves the campaign running; it waits for a call slot its campaign's leads hold; and a claim
// whose dialer stopped before recording its call is placed again only within the calling hours.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRouterTransport } from '@connectrpc/connect';
import { CallsService, type CreateCallRequest } from '@voice/proto/voice/calls/v1/calls';
import { CallerSigner } from '@voice/runtime/caller';
import { ConcurrencySlots, MemorySlotTable, MemoryWindowCounter } from '@voice/runtime/counters';
import { serviceError } from '@voice/runtime/errors';
import { jobDone, jobLater } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { ConnectCampaignCalls } from '../src/peers/campaign-calls.js';
import { callbackSlotHolder, callSlotGroup, callSlotHolder } from '../src/dialer/call-slots.js';
import { CallbackDialer, callbackHeldRecheckMs, unfundedCallbackRetryMs } from '../src/dialer/callback-dialer.js';
import { concurrencyRecheckMs, DialGate } from '../src/dialer/dial-gate.js';
import { FromNumbers } from '../src/dialer/from-numbers.js';
import type { CallbackRecord } from '../src/store/callback-store.js';
import { SqliteCampaignStore } from '../src/store/sqlite.js';
import type { CampaignRecord } from '../src/store/store.js';
import { callbackRecord } from './callbacks.contract.js';
import { PlayedPeers } from './harness.js';
import { campaignRecord } from './store.contract.js';

const silent = createLogger({ service: 'test', level: 'silent' });
/** A Monday at 11:00 in Berlin, the zone of the window campaignRecord sets: within the calling hours. */
let clock = Date.parse('2026-11-23T10:00:00.000Z');
const inMs = (ms: number) => new Date(clock + ms).toISOString();

let dir: string;
let store: SqliteCampaignStore;

beforeEach(() => {
  clock = Date.parse('2026-11-23T10:00:00.000Z');
  dir = mkdtempSync(join(tmpdir(), 'campaigns-callback-dialer-'));
  store = new SqliteCampaignStore(join(dir, 'campaigns.sqlite'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const fundsRefusal = () =>
  serviceError('conflict', 'not enough funds: a call needs at least one minute (0.1000 credits beyond included minutes); available are 0 minutes and 0.0000 credits', {
    condition: 'insufficient_funds',
  });

/** A callback dialer whose calls service places every call, or refuses it for funds while `unfunded` is set. */
function callbackDialer() {
  const peers = new PlayedPeers();
  const placed: CreateCallRequest[] = [];
  const calls = { unfunded: false, placed };
  const transport = createRouterTransport(({ service }) => {
    service(CallsService, {
      createCall: (request) => {
        if (calls.unfunded) throw fundsRefusal();
        placed.push(request);
        return { call: { id: newId() } };
      },
    });
  });
  const callSlots = new ConcurrencySlots(new MemorySlotTable(), { stillHeld: async () => true });
  const placer = new ConnectCampaignCalls(transport, new CallerSigner(Buffer.alloc(32, 7)));
  const gate = new DialGate({ peers, fromNumbers: new FromNumbers(peers), calls: placer, dialRates: new MemoryWindowCounter(60_000), callSlots });
  const dialer = new CallbackDialer({ store, gate, now: () => new Date(clock), logger: silent });
  return { dialer, peers, calls, callSlots };
}

async function campaignOf(peers: PlayedPeers, overrides: Partial<CampaignRecord> = {}): Promise<CampaignRecord> {
  const workspace = newId();
  const base = campaignRecord(workspace, { status: 'running', startedAt: inMs(-3600_000), ...overrides });
  const campaign = { ...base, settings: { ...base.settings, from_number_ids: [peers.addNumber(workspace)] } };
  await store.insertCampaign(campaign);
  return campaign;
}

/** A caller's-number callback of the campaign, due a minute ago, judged by the window's zone. */
async function callbackOf(campaign: CampaignRecord, overrides: Partial<CallbackRecord> = {}): Promise<CallbackRecord> {
  const callback = callbackRecord(campaign.workspaceId, { campaignId: campaign.id, leadId: null, timeZone: null, at: inMs(-60_000), ...overrides });
  await store.callbacks.insertCallback(callback);
  return callback;
}

const jobOf = (callback: CallbackRecord) => ({ workspace: callback.workspaceId, callback: callback.id });
const stored = (callback: CallbackRecord) => store.callbacks.getCallback(callback.workspaceId, callback.id);

test('held more than 24 hours past its time, a callback fails as expired and is not called', async () => {
  const { dialer, peers, calls } = callbackDialer();
  const campaign = await campaignOf(peers);
  const late = await callbackOf(campaign, { at: inMs(-(24 * 3600_000 + 1_000)) });
  const inTime = await callbackOf(campaign, { at: inMs(-(24 * 3600_000 - 60_000)) });

  expect(await dialer.handle(jobOf(late))).toEqual(jobDone);
  expect(await stored(late)).toMatchObject({ status: 'failed', failureReason: 'expired', attempts: 0, callId: null });
  expect(calls.placed).toHaveLength(0);
  // Just within the grace period it is still placed.
  expect(await dialer.handle(jobOf(inTime))).toEqual(jobDone);
  expect(await stored(inTime)).toMatchObject({ status: 'dialing', attempts: 1, callId: expect.any(String) });
  expect(calls.placed.map((call) => call.to)).toEqual([inTime.phone]);
});

test('a paused campaign holds its callback past its time, uncalled; running again, it is placed', async () => {
  const { dialer, peers, calls, callSlots } = callbackDialer();
  const campaign = await campaignOf(peers, { status: 'paused', pausedReason: 'insufficient_funds' });
  const callback = await callbackOf(campaign);

  expect(await dialer.handle(jobOf(callback))).toEqual(jobLater(callbackHeldRecheckMs));
  expect(await stored(callback)).toMatchObject({ status: 'scheduled', attempts: 0, callId: null, failureReason: null });
  expect(calls.placed).toHaveLength(0);
  expect(await callSlots.holders(callSlotGroup(campaign.workspaceId, campaign.id))).toEqual([]);

  await store.updateCampaign(campaign.workspaceId, campaign.id, campaign.revision, { status: 'running', pausedReason: null }, inMs(0), []);
  clock += callbackHeldRecheckMs;
  expect(await dialer.handle(jobOf(callback))).toEqual(jobDone);
  const placed = await stored(callback);
  expect(placed).toMatchObject({ status: 'dialing', attempts: 1, callId: expect.any(String) });
  expect(calls.placed).toHaveLength(1);
  expect(calls.placed[0]).toMatchObject({ to: callback.phone, campaignId: campaign.id, idempotencyKey: `campaign-callback-${callback.id}` });
  // Its call holds a slot of the campaign until it ends.
  expect(await callSlots.holders(callSlotGroup(campaign.workspaceId, campaign.id))).toEqual([callbackSlotHolder(callback.id)]);
});

test('a call the wallet cannot fund puts the callback back, its try counted, and leaves the campaign running; funded, the next try places it', async () => {
  const { dialer, peers, calls, callSlots } = callbackDialer();
  const campaign = await campaignOf(peers);
  const callback = await callbackOf(campaign);
  calls.unfunded = true;

  expect(await dialer.handle(jobOf(callback))).toEqual(jobLater(unfundedCallbackRetryMs));
  expect(await stored(callback)).toMatchObject({ status: 'scheduled', attempts: 1, callId: null, failureReason: null });
  expect(await store.getCampaign(campaign.workspaceId, campaign.id)).toMatchObject({ status: 'running', pausedReason: null, revision: campaign.revision });
  expect(await callSlots.holders(callSlotGroup(campaign.workspaceId, campaign.id))).toEqual([]);

  calls.unfunded = false;
  clock += unfundedCallbackRetryMs;
  expect(await dialer.handle(jobOf(callback))).toEqual(jobDone);
  expect(await stored(callback)).toMatchObject({ status: 'dialing', attempts: 2, callId: expect.any(String) });
  expect(calls.placed).toHaveLength(1);
});

test('a callback waits while its campaign’s leads hold every call slot', async () => {
  const { dialer, peers, calls, callSlots } = callbackDialer();
  const base = await campaignOf(peers);
  const campaign = { ...base, settings: { ...base.settings, pacing: { ...base.settings.pacing, max_concurrent: 1 } } };
  await store.updateCampaign(campaign.workspaceId, campaign.id, base.revision, { settings: campaign.settings }, inMs(0), []);
  const group = callSlotGroup(campaign.workspaceId, campaign.id);
  const leadCall = callSlotHolder(newId(), 1);
  expect(await callSlots.acquire(group, leadCall, 1)).toBe(true);
  const callback = await callbackOf(campaign);

  expect(await dialer.handle(jobOf(callback))).toEqual(jobLater(concurrencyRecheckMs));
  expect(await stored(callback)).toMatchObject({ status: 'scheduled', attempts: 0 });
  expect(await callSlots.holders(group)).toEqual([leadCall]);
  expect(calls.placed).toHaveLength(0);

  await callSlots.release(group, leadCall);
  expect(await dialer.handle(jobOf(callback))).toEqual(jobDone);
  expect(await callSlots.holders(group)).toEqual([callbackSlotHolder(callback.id)]);
  expect(calls.placed).toHaveLength(1);
});

test('a claim whose dialer stopped before recording its call is placed again only within the calling hours', async () => {
  const { dialer, peers, calls } = callbackDialer();
  const campaign = await campaignOf(peers);
  // Claimed at 20:59 in Berlin; looked at again at 21:01, past the calling hours.
  clock = Date.parse('2026-11-23T20:01:00.000Z');
  const callback = await callbackOf(campaign, { at: inMs(-120_000), status: 'dialing', attempts: 1 });

  const held = await dialer.handle(jobOf(callback));
  // The hours open at 08:00 Berlin (07:00Z) the next day.
  expect(held).toEqual(jobLater(Date.parse('2026-11-24T07:00:00.000Z') - clock));
  expect(await stored(callback)).toMatchObject({ status: 'dialing', attempts: 1, callId: null });
  expect(calls.placed).toHaveLength(0);

  clock = Date.parse('2026-11-24T07:00:00.000Z');
  expect(await dialer.handle(jobOf(callback))).toEqual(jobDone);
  expect(await stored(callback)).toMatchObject({ status: 'dialing', attempts: 1, callId: expect.any(String) });
  expect(calls.placed.map((call) => call.idempotencyKey)).toEqual([`campaign-callback-${callback.id}`]);
});
