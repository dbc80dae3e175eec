// Tier 2: the campaigns service's routes over an in-memory Connect transport, with the real
// signed-caller interceptor and SQLite store; assistants, telephony and calls are played (harness.ts).
import { Code } from '@connectrpc/connect';
import { create } from '@bufbuild/protobuf';
import { CampaignCallSummarySchema } from '@voice/proto/voice/calls/v1/calls';
import { newId } from '@voice/runtime/ids';
import type { CallbackRecord } from '../src/store/callback-store.js';
import { callbackRecord } from './callbacks.contract.js';
import { failure, setup, type CampaignsTier } from './harness.js';

let tier: CampaignsTier;
beforeAll(async () => {
  tier = await setup();
});
afterAll(() => tier.close());

function workspaceWithReferences() {
  const workspaceId = newId();
  return {
    workspaceId,
    options: tier.inWorkspace(workspaceId),
    settings: { name: 'Renewals', assistant_id: tier.peers.addAssistant(workspaceId), from_number_ids: [tier.peers.addNumber(workspaceId)] },
  };
}

test('every call needs a signed caller naming a workspace', async () => {
  expect((await failure(tier.campaigns.client.listCampaigns({}))).code).toBe(Code.Unauthenticated);
  expect((await failure(tier.campaigns.client.listCampaigns({}, tier.campaigns.internal))).reason).toBe('unauthorized');
});

test('references are the workspace’s: an unknown assistant, another workspace’s number and one without voice are each named', async () => {
  const { workspaceId, options, settings } = workspaceWithReferences();
  const smsOnly = tier.peers.addNumber(workspaceId, false);
  const elsewhere = tier.peers.addNumber(newId());
  const refused = await failure(
    tier.campaigns.client.createCampaign({ settings: { ...settings, assistant_id: newId(), from_number_ids: [settings.from_number_ids[0]!, smsOnly, elsewhere] } }, options),
  );
  expect(refused).toMatchObject({ code: Code.InvalidArgument, reason: 'invalid_request' });
  expect(refused.fields.map((issue) => issue.field)).toEqual(['assistant_id', 'from_number_ids.1', 'from_number_ids.2']);
  expect((await tier.campaigns.client.listCampaigns({}, options)).total).toBe(0);
});

test('the state machine’s refusals carry the conflict reason; a stale revision is revision_conflict', async () => {
  const { options, settings } = workspaceWithReferences();
  const { campaign } = await tier.campaigns.client.createCampaign({ settings }, options);
  expect(await failure(tier.campaigns.client.stopCampaign({ id: campaign!.id }, options))).toMatchObject({ code: Code.FailedPrecondition, reason: 'conflict' });
  expect(await failure(tier.campaigns.client.startCampaign({ id: campaign!.id }, options))).toMatchObject({ reason: 'conflict' });
  expect(await failure(tier.campaigns.client.updateCampaign({ id: campaign!.id, expectedRevision: 5, changes: { name: 'x' } }, options))).toMatchObject({
    code: Code.Aborted,
    reason: 'revision_conflict',
  });
  expect(await failure(tier.campaigns.client.getCampaign({ id: 'not-a-uuid' }, options))).toMatchObject({ code: Code.NotFound });
});

test('a bulk import asks the suppression list once, for each distinct valid number', async () => {
  const { workspaceId, options, settings } = workspaceWithReferences();
  const { campaign } = await tier.campaigns.client.createCampaign({ settings }, options);
  tier.peers.suppress(workspaceId, '+14155550101');
  const before = tier.peers.suppressionQuestions.length;
  const leads = ['+14155550100', '+14155550101', 'nope', '+1 415 555 0100', '+14155550102'].map((phone) => ({ phone }));
  const { results } = await tier.leads.addLeads({ campaignId: campaign!.id, leads }, options);
  expect(results.map((row) => row.outcome)).toEqual(['created', 'suppressed', 'invalid_number', 'duplicate', 'created']);
  expect(tier.peers.suppressionQuestions.slice(before)).toEqual([3]);
});

test('a segment and a lead of one workspace do not exist for another', async () => {
  const mine = workspaceWithReferences();
  const theirs = workspaceWithReferences();
  const { segment } = await tier.segments.createSegment({ body: { name: 'All', filter: {} } }, theirs.options);
  const { campaign } = await tier.campaigns.client.createCampaign({ settings: theirs.settings }, theirs.options);
  const { lead } = await tier.leads.addLead({ campaignId: campaign!.id, lead: { phone: '+14155550109' } }, theirs.options);
  expect((await failure(tier.segments.getSegment({ id: segment!.id }, mine.options))).code).toBe(Code.NotFound);
  expect((await failure(tier.leads.removeLead({ id: lead!.id }, mine.options))).code).toBe(Code.NotFound);
  expect((await failure(tier.leads.listLeads({ segmentId: segment!.id }, mine.options))).code).toBe(Code.NotFound);
  expect((await tier.leads.listLeads({}, mine.options)).total).toBe(0);
});

test('GetCampaign carries the calls service’s count of its calls, asked for the caller’s workspace; other answers carry none', async () => {
  const mine = workspaceWithReferences();
  const { campaign } = await tier.campaigns.client.createCampaign({ settings: mine.settings }, mine.options);
  const counted = create(CampaignCallSummarySchema, { placed: 4, connected: 2, completed: 2, busy: 1, active: 1, billedMinuteUnits: 3000n, creditUnitsCharged: 2000n });
  tier.campaignCalls.summaries.set(`${mine.workspaceId}:${campaign!.id}`, counted);
  const asked = tier.campaignCalls.asked.length;
  expect((await tier.campaigns.client.getCampaign({ id: campaign!.id }, mine.options)).campaign!.calls).toEqual(counted);
  expect(tier.campaignCalls.asked.slice(asked)).toEqual([{ workspaceId: mine.workspaceId, campaignId: campaign!.id }]);
  expect(campaign!.calls).toBeUndefined();
  const listed = await tier.campaigns.client.listCampaigns({}, mine.options);
  expect(listed.campaigns.map((item) => item.calls)).toEqual([undefined]);
  // Another workspace's campaign is not found, and the calls service is not asked about it.
  const theirs = workspaceWithReferences();
  expect((await failure(tier.campaigns.client.getCampaign({ id: campaign!.id }, theirs.options))).code).toBe(Code.NotFound);
  expect(tier.campaignCalls.asked.slice(asked)).toHaveLength(1);
});

test('only a scheduled callback is cancelled: one being placed, completed or failed is a conflict naming its state and stays as it was; a cancelled one answers as it is', async () => {
  const { workspaceId, options } = workspaceWithReferences();
  const refusals: [Partial<CallbackRecord>, string][] = [
    [{ status: 'dialing', attempts: 1 }, 'the callback is being placed; it can no longer be cancelled'],
    [{ status: 'completed', attempts: 1, callId: newId() }, 'the callback is completed; only a scheduled callback can be cancelled'],
    [{ status: 'failed', failureReason: 'campaign_stopped' }, 'the callback is failed; only a scheduled callback can be cancelled'],
  ];
  for (const [state, message] of refusals) {
    const callback = callbackRecord(workspaceId, state);
    await tier.store.callbacks.insertCallback(callback);
    expect(await failure(tier.callbacks.cancelCallback({ id: callback.id }, options))).toMatchObject({ code: Code.FailedPrecondition, reason: 'conflict', message });
    expect(await tier.store.callbacks.getCallback(workspaceId, callback.id)).toEqual(callback);
  }
  const cancelled = callbackRecord(workspaceId, { status: 'cancelled' });
  await tier.store.callbacks.insertCallback(cancelled);
  expect((await tier.callbacks.cancelCallback({ id: cancelled.id }, options)).callback).toMatchObject({ id: cancelled.id, status: 'cancelled' });
  expect(await tier.store.callbacks.getCallback(workspaceId, cancelled.id)).toEqual(cancelled);
  // Another workspace's callback is not found, whatever its state.
  expect(await failure(tier.callbacks.cancelCallback({ id: cancelled.id }, tier.inWorkspace(newId())))).toMatchObject({ code: Code.NotFound });
});
