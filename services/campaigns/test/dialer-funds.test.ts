// The dialer meeting a wallet that cannot hold a call, over a real SQLite store and the call placer
// speaking Connect to a calls service that refuses as the real one does: the funds refusal (a conflict
// naming the insufficient_funds condition) gives the lead its attempt back and pauses the campaign with
// the reason; any other conflict still fails the lead and leaves the campaign running.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRouterTransport } from '@connectrpc/connect';
import { CallsService } from '@voice/proto/voice/calls/v1/calls';
import { CallerSigner } from '@voice/runtime/caller';
import { ConcurrencySlots, MemorySlotTable, MemoryWindowCounter } from '@voice/runtime/counters';
import { serviceError } from '@voice/runtime/errors';
import { jobDone } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { ConnectCampaignCalls } from '../src/peers/campaign-calls.js';
import { callSlotGroup } from '../src/dialer/call-slots.js';
import { DialGate } from '../src/dialer/dial-gate.js';
import { Dialer } from '../src/dialer/dialer.js';
import { FromNumbers } from '../src/dialer/from-numbers.js';
import { SqliteCampaignStore } from '../src/store/sqlite.js';
import { PlayedPeers } from './harness.js';
import { campaignRecord, leadRecord } from './store.contract.js';

const silent = createLogger({ service: 'test', level: 'silent' });
/** A Monday at 11:00 in Berlin: inside the window campaignRecord sets. */
const now = () => new Date('2026-11-23T10:00:00.000Z');
const startedAt = '2026-11-23T09:00:00.000Z';

let dir: string;
let store: SqliteCampaignStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'campaigns-dialer-funds-'));
  store = new SqliteCampaignStore(join(dir, 'campaigns.sqlite'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A dialer whose calls service refuses every call with `refusal`. */
function dialerRefusing(refusal: Error) {
  const peers = new PlayedPeers();
  const transport = createRouterTransport(({ service }) => {
    service(CallsService, {
      createCall: () => {
        throw refusal;
      },
    });
  });
  const callSlots = new ConcurrencySlots(new MemorySlotTable(), { stillHeld: async () => true });
  const calls = new ConnectCampaignCalls(transport, new CallerSigner(Buffer.alloc(32, 7)));
  const dialer = new Dialer({
    store,
    gate: new DialGate({ peers, fromNumbers: new FromNumbers(peers), calls, dialRates: new MemoryWindowCounter(60_000), callSlots }),
    now,
    logger: silent,
    // No outbox relay runs here: what a completion would publish is not this test's concern.
    wakeRelay: () => undefined,
  });
  return { dialer, peers, callSlots };
}

async function runningCampaign(peers: PlayedPeers) {
  const workspace = newId();
  const base = campaignRecord(workspace, { status: 'running', startedAt });
  const campaign = { ...base, settings: { ...base.settings, from_number_ids: [peers.addNumber(workspace)] } };
  await store.insertCampaign(campaign);
  const leads = [leadRecord(campaign, { timeZone: null }), leadRecord(campaign, { timeZone: null })];
  await store.insertLeads(leads);
  return { workspace, campaign, leads };
}

const fundsRefusal = () =>
  serviceError('conflict', 'not enough funds: a call needs at least one minute (0.1000 credits beyond included minutes); available are 0 minutes and 0.0000 credits', {
    condition: 'insufficient_funds',
  });

test('a call the wallet cannot fund leaves its lead pending with its attempt unspent and pauses the campaign', async () => {
  const { dialer, peers, callSlots } = dialerRefusing(fundsRefusal());
  const { workspace, campaign, leads } = await runningCampaign(peers);

  expect(await dialer.handle({ workspace, campaign: campaign.id, lead: leads[0]!.id, attempt: 1, run: startedAt })).toEqual(jobDone);

  expect(await store.getLead(workspace, leads[0]!.id)).toMatchObject({ status: 'pending', attempts: 0, callIds: [] });
  expect(await store.getCampaign(workspace, campaign.id)).toMatchObject({ status: 'paused', pausedReason: 'insufficient_funds', startedAt, revision: 2 });
  // The call slot the dial took is given back: no call runs.
  expect(await callSlots.holders(callSlotGroup(workspace, campaign.id))).toEqual([]);
  // The paused campaign dials no more: the other lead's job is dropped and the lead stays pending.
  expect(await dialer.handle({ workspace, campaign: campaign.id, lead: leads[1]!.id, attempt: 1, run: startedAt })).toEqual(jobDone);
  expect(await store.getLead(workspace, leads[1]!.id)).toMatchObject({ status: 'pending', attempts: 0 });
  expect((await store.countLeads(workspace, [campaign.id])).get(campaign.id)).toMatchObject({ pending: 2, failed: 0, calling: 0 });
});

test('funds refusals of concurrent jobs pause the campaign once and fail no lead', async () => {
  const { dialer, peers } = dialerRefusing(fundsRefusal());
  const { workspace, campaign, leads } = await runningCampaign(peers);

  await Promise.all(leads.map((lead) => dialer.handle({ workspace, campaign: campaign.id, lead: lead.id, attempt: 1, run: startedAt })));

  expect(await store.getCampaign(workspace, campaign.id)).toMatchObject({ status: 'paused', pausedReason: 'insufficient_funds' });
  expect((await store.countLeads(workspace, [campaign.id])).get(campaign.id)).toMatchObject({ pending: 2, failed: 0, calling: 0 });
});

test('any other conflict still fails the lead, and the campaign keeps running', async () => {
  const { dialer, peers, callSlots } = dialerRefusing(serviceError('conflict', 'the assistant cannot take calls'));
  const { workspace, campaign, leads } = await runningCampaign(peers);

  await dialer.handle({ workspace, campaign: campaign.id, lead: leads[0]!.id, attempt: 1, run: startedAt });
  expect(await callSlots.holders(callSlotGroup(workspace, campaign.id))).toEqual([]);

  expect(await store.getLead(workspace, leads[0]!.id)).toMatchObject({ status: 'failed', attempts: 1 });
  expect(await store.getCampaign(workspace, campaign.id)).toMatchObject({ status: 'running', pausedReason: null });
});
