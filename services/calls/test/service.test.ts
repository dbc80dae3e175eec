// Tier 2: the CallsService over an in-memory Connect transport, with the real signed-caller check
// and SQLite store; the assistants, telephony and billing a call meets are played (harness.ts).
import { Code } from '@connectrpc/connect';
import type { JsonObject } from '@bufbuild/protobuf';
import { fromBinary, toJson } from '@bufbuild/protobuf';
import { newId } from '@voice/runtime/ids';
import { CallDirection, CallSchema, CallStatus, CallsService } from '@voice/proto/voice/calls/v1/calls';
import { UsageEventSchema } from '@voice/proto/voice/billing/v1/events';
import { failure, setup, type Harness } from './harness.js';

let h: Harness<typeof CallsService>;
beforeAll(async () => {
  h = await setup(CallsService);
});
afterAll(async () => {
  await h.close();
});

const from = '+442071838750';
const to = '+14155550123';

/** A workspace with an assistant, a voice number and `credits` credit sub-units (rate: 1,000 a minute). */
function workspace(credits = 100_000, config: JsonObject = { end_call: { max_duration_seconds: 300 }, first_message: 'Hi' }) {
  const id = newId();
  const assistantId = newId();
  const numberId = newId();
  h.peers.addAssistant(id, assistantId, config, ['pro', 'enterprise'], 4);
  h.peers.addNumber(id, from, numberId);
  h.holds.wallets.set(id, { minuteUnits: 0, creditUnits: credits });
  return { id, assistantId, numberId, options: h.tier.inWorkspace(id) };
}

const request = (assistantId: string, extra: object = {}) => ({ assistantId, from, to, workspacePlan: 'pro', ...extra });

test('every call needs a signed caller naming a workspace', async () => {
  expect((await failure(h.tier.client.listCalls({}))).code).toBe(Code.Unauthenticated);
  expect(await failure(h.tier.client.listCalls({}, h.tier.internal))).toMatchObject({ reason: 'unauthorized' });
});

test('a call is held for the assistant’s longest length, stored queued and placed with a session token for the runtime', async () => {
  const ws = workspace();
  const answer = await h.tier.client.createCall(request(ws.assistantId, { variables: { name: 'Ada' }, metadata: { crm: 7 } }), ws.options);
  const call = answer.call!;
  expect(answer.replayed).toBe(false);
  expect(call).toMatchObject({
    status: CallStatus.QUEUED,
    direction: CallDirection.OUTBOUND,
    from,
    to,
    assistantId: ws.assistantId,
    assistantVersion: 4,
    variables: { name: 'Ada' },
    metadata: { crm: 7 },
    durationSeconds: 0,
    events: [],
    transcript: [],
    hasRecording: false,
  });
  expect(h.holds.held.get(call.id)).toMatchObject({ workspaceId: ws.id, minutes: 5, creditUnitsPerMinute: 1_000, kind: 'call.minutes', reference: call.id, creditUnits: 5_000 });
  const leg = h.peers.legs.find((placed) => placed.callId === call.id)!;
  expect(leg).toMatchObject({ workspaceId: ws.id, from, to, numberId: ws.numberId, maxDurationSeconds: 300 });
  expect(leg.mediaParameters.call_id).toBe(call.id);
  expect(h.tokens.verify(call.id, leg.mediaParameters.session_token!)).toBe(true);
  expect(h.tokens.verify(newId(), leg.mediaParameters.session_token!)).toBe(false);
  expect((await h.tier.client.getCall({ id: call.id }, ws.options)).call).toMatchObject({ id: call.id, status: CallStatus.QUEUED });
  // Nothing internal in the answer: not the leg, the session token, the number's id or the assistant's configuration.
  const shown = JSON.stringify(toJson(CallSchema, (await h.tier.client.getCall({ id: call.id }, ws.options)).call!));
  for (const hidden of ['leg-', leg.mediaParameters.session_token!, ws.numberId, 'first_message']) expect(shown).not.toContain(hidden);
});

test('a call placed by a service for the workspace (no plan named) runs on the workspace’s own plan; a suspended workspace places none', async () => {
  const ws = workspace();
  h.peers.plans.set(ws.id, 'starter');
  const onStarter = await failure(h.tier.client.createCall(request(ws.assistantId, { workspacePlan: '' }), ws.options));
  expect(onStarter).toMatchObject({ reason: 'forbidden' });
  expect(onStarter.message).toContain('starter');
  h.peers.plans.set(ws.id, 'pro');
  const { call } = await h.tier.client.createCall(request(ws.assistantId, { workspacePlan: '' }), ws.options);
  expect(call).toMatchObject({ assistantId: ws.assistantId });
  h.peers.plans.set(ws.id, undefined);
  const legsBefore = h.peers.legs.length;
  expect(await failure(h.tier.client.createCall(request(ws.assistantId, { workspacePlan: '' }), ws.options))).toMatchObject({ reason: 'forbidden', message: expect.stringContaining('takes no calls') });
  expect(h.peers.legs.length).toBe(legsBefore);
});

test('each precondition has its own error, in order, and nothing is held or placed for a refused call', async () => {
  const ws = workspace();
  const legsBefore = h.peers.legs.length;
  const heldBefore = h.holds.held.size;
  const bad = await failure(h.tier.client.createCall({ assistantId: 'nope', from: '12', to, workspacePlan: 'pro', metadata: {} }, ws.options));
  expect(bad).toMatchObject({ code: Code.InvalidArgument, reason: 'invalid_request' });
  expect(bad.fields.map((field) => field.field).sort()).toEqual(['assistant_id', 'from']);
  expect(await failure(h.tier.client.createCall(request(newId()), ws.options))).toMatchObject({ code: Code.NotFound, reason: 'not_found' });
  expect(await failure(h.tier.client.createCall(request(ws.assistantId, { workspacePlan: 'starter' }), ws.options))).toMatchObject({ reason: 'forbidden' });
  expect(await failure(h.tier.client.createCall(request(ws.assistantId, { from: '+442071838751' }), ws.options))).toMatchObject({ reason: 'not_found' });
  h.peers.suppressed.add(`${ws.id}:${to}`);
  expect(await failure(h.tier.client.createCall(request(ws.assistantId), ws.options))).toMatchObject({ code: Code.PermissionDenied, reason: 'destination_forbidden' });
  h.peers.suppressed.delete(`${ws.id}:${to}`);
  h.holds.wallets.set(ws.id, { minuteUnits: 0, creditUnits: 999 });
  expect(await failure(h.tier.client.createCall(request(ws.assistantId), ws.options))).toMatchObject({ code: Code.FailedPrecondition, reason: 'conflict' });
  expect(h.peers.legs.length).toBe(legsBefore);
  expect(h.holds.held.size).toBe(heldBefore);
  expect((await h.tier.client.listCalls({}, ws.options)).total).toBe(0);
});

test('a wallet that covers less than the longest call holds what it covers, and the call is limited to it', async () => {
  const ws = workspace(2_500);
  const call = (await h.tier.client.createCall(request(ws.assistantId), ws.options)).call!;
  expect(h.holds.held.get(call.id)).toMatchObject({ minutes: 2, creditUnits: 2_000 });
  expect(h.peers.legs.find((leg) => leg.callId === call.id)).toMatchObject({ maxDurationSeconds: 120 });
  // Included minutes count first.
  const withMinutes = workspace(0);
  h.holds.wallets.set(withMinutes.id, { minuteUnits: 3_000, creditUnits: 1_000 });
  const second = (await h.tier.client.createCall(request(withMinutes.assistantId), withMinutes.options)).call!;
  expect(h.holds.held.get(second.id)).toMatchObject({ minutes: 4, minuteUnits: 3_000, creditUnits: 1_000 });
});

test('an Idempotency-Key answers its first call again, and another body under it is a conflict', async () => {
  const ws = workspace();
  const key = `key-${newId()}`;
  const first = await h.tier.client.createCall(request(ws.assistantId, { idempotencyKey: key }), ws.options);
  const again = await h.tier.client.createCall(request(ws.assistantId, { idempotencyKey: key }), ws.options);
  expect(again).toMatchObject({ replayed: true, call: { id: first.call!.id } });
  expect(await failure(h.tier.client.createCall(request(ws.assistantId, { idempotencyKey: key, to: '+14155550124' }), ws.options))).toMatchObject({ reason: 'conflict' });
  expect(h.peers.legs.filter((leg) => leg.callId === first.call!.id)).toHaveLength(1);
  expect((await h.tier.client.listCalls({}, ws.options)).total).toBe(1);
});

test('a call the carrier could not take ends failed and its hold is released through the outbox', async () => {
  const ws = workspace();
  h.peers.placeFailure = new Error('connect ECONNREFUSED');
  try {
    expect(await failure(h.tier.client.createCall(request(ws.assistantId), ws.options))).toMatchObject({ code: Code.Unavailable, reason: 'telephony_unavailable' });
  } finally {
    h.peers.placeFailure = undefined;
  }
  const [failed] = (await h.tier.client.listCalls({}, ws.options)).calls;
  expect(failed).toMatchObject({ status: CallStatus.FAILED, endReason: 'failed' });
  const events = (await h.store.outbox.pending(1000)).filter((event) => event.subject === 'usage.calls.minutes');
  const release = events.map((event) => fromBinary(UsageEventSchema, event.payload)).find((usage) => usage.holdId === failed!.id);
  expect(release).toMatchObject({ workspaceId: ws.id, minuteUnits: 0n, kind: 'call.minutes', reference: failed!.id });
});

test('calls are listed newest first with filters; another workspace’s call and malformed ids are not found', async () => {
  const ws = workspace();
  const first = (await h.tier.client.createCall(request(ws.assistantId), ws.options)).call!;
  const second = (await h.tier.client.createCall(request(ws.assistantId, { to: '+14155550177' }), ws.options)).call!;
  const list = await h.tier.client.listCalls({ page: { limit: 1, offset: 0 } }, ws.options);
  expect([list.total, list.calls.map((call) => call.id)]).toEqual([2, [second.id]]);
  expect((await h.tier.client.listCalls({ number: '+1 415-555-0177' }, ws.options)).calls.map((call) => call.id)).toEqual([second.id]);
  expect((await h.tier.client.listCalls({ status: CallStatus.COMPLETED }, ws.options)).total).toBe(0);
  expect((await h.tier.client.listCalls({ assistantId: ws.assistantId, direction: CallDirection.OUTBOUND }, ws.options)).total).toBe(2);
  expect(await failure(h.tier.client.listCalls({ number: 'x' }, ws.options))).toMatchObject({ fields: [{ field: 'number', issue: expect.any(String) }] });
  const other = workspace();
  expect(await failure(h.tier.client.getCall({ id: first.id }, other.options))).toMatchObject({ code: Code.NotFound });
  expect(await failure(h.tier.client.getCall({ id: 'not-a-uuid' }, ws.options))).toMatchObject({ code: Code.NotFound });
  expect((await h.tier.client.listCalls({}, other.options)).total).toBe(0);
});

test('a call placed for a campaign is counted in the campaign’s summary of its own workspace only; a malformed campaign id is refused', async () => {
  const ws = workspace();
  const campaignId = newId();
  const placed = (await h.tier.client.createCall(request(ws.assistantId, { campaignId, metadata: { campaign_id: campaignId } }), ws.options)).call!;
  await h.tier.client.createCall(request(ws.assistantId, { metadata: { campaign_id: campaignId } }), ws.options);
  expect(await h.store.getCall(ws.id, placed.id)).toMatchObject({ campaignId });
  expect((await h.tier.client.summarizeCampaignCalls({ campaignId }, ws.options)).summary).toMatchObject({ placed: 1, active: 1, connected: 0, billedMinuteUnits: 0n });
  const other = workspace();
  expect((await h.tier.client.summarizeCampaignCalls({ campaignId }, other.options)).summary).toMatchObject({ placed: 0, active: 0 });
  expect(await failure(h.tier.client.summarizeCampaignCalls({ campaignId: 'nope' }, ws.options))).toMatchObject({ code: Code.InvalidArgument, fields: [{ field: 'campaign_id' }] });
  expect(await failure(h.tier.client.createCall(request(ws.assistantId, { campaignId: 'nope' }), ws.options))).toMatchObject({ code: Code.InvalidArgument });
});
