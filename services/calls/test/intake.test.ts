// Tier 2: the CallIntakeService over an in-memory transport: telephony hands over an inbound call,
// which is held and stored on its ringing leg, or refused with a reason; a retry for the same leg
// answers the same call; metadata (a sandbox caller's script) is kept with it.
import type { JsonObject } from '@bufbuild/protobuf';
import { Code } from '@connectrpc/connect';
import { newId } from '@voice/runtime/ids';
import { CallIntakeService } from '@voice/proto/voice/calls/v1/call_intake';
import { failure, setup, type Harness } from './harness.js';

let h: Harness<typeof CallIntakeService>;
beforeAll(async () => {
  h = await setup(CallIntakeService);
});
afterAll(async () => {
  await h.close();
});

function inbound(credits = 10_000) {
  const workspaceId = newId();
  const assistantId = newId();
  h.peers.addAssistant(workspaceId, assistantId, { end_call: { max_duration_seconds: 180 } }, ['pro']);
  h.holds.wallets.set(workspaceId, { minuteUnits: 0, creditUnits: credits });
  const telephony = h.tier.as({ workspaceId, principal: { type: 'internal', id: 'telephony', name: 'telephony' }, scopes: null });
  return { request: { workspaceId, numberId: newId(), assistantId, from: '+14155550123', to: '+442071838750', legId: `leg-${newId()}` }, telephony };
}

test('an inbound call is held, stored on its ringing leg and answered with the media parameters; a retry answers the same call', async () => {
  const { request, telephony } = inbound();
  const accepted = await h.tier.client.acceptInboundCall(request, telephony);
  expect(accepted.refusal).toBe('');
  expect(accepted.mediaParameters).toEqual({ call_id: accepted.callId, session_token: h.tokens.issue(accepted.callId) });
  expect(await h.store.getCall(request.workspaceId, accepted.callId)).toMatchObject({
    direction: 'inbound',
    status: 'ringing',
    from: '+14155550123',
    to: '+442071838750',
    numberId: request.numberId,
    legId: request.legId,
    legSequence: 1,
    maxDurationSeconds: 180,
  });
  expect(h.holds.held.get(accepted.callId)).toMatchObject({ minutes: 3 });
  const again = await h.tier.client.acceptInboundCall(request, telephony);
  expect(again.callId).toBe(accepted.callId);
  expect([...h.holds.held.values()].filter((hold) => hold.workspaceId === request.workspaceId)).toHaveLength(1);
});

test('what cannot run is refused with a reason, and nothing is held', async () => {
  const poor = inbound(999);
  expect(await h.tier.client.acceptInboundCall(poor.request, poor.telephony)).toMatchObject({ callId: '', refusal: expect.stringContaining('funds') });
  const gone = inbound();
  expect(await h.tier.client.acceptInboundCall({ ...gone.request, assistantId: newId() }, gone.telephony)).toMatchObject({ callId: '', refusal: expect.any(String) });
  const suspended = inbound();
  h.peers.plans.set(suspended.request.workspaceId, undefined);
  expect(await h.tier.client.acceptInboundCall(suspended.request, suspended.telephony)).toMatchObject({ callId: '', refusal: expect.any(String) });
  const starter = inbound();
  h.peers.plans.set(starter.request.workspaceId, 'starter');
  expect(await h.tier.client.acceptInboundCall(starter.request, starter.telephony)).toMatchObject({ callId: '', refusal: expect.any(String) });
  for (const workspace of [poor, gone, suspended, starter]) {
    expect([...h.holds.held.values()].filter((hold) => hold.workspaceId === workspace.request.workspaceId)).toEqual([]);
  }
});

test('only telephony of the same workspace may hand a call over, and malformed requests are 400', async () => {
  const { request, telephony } = inbound();
  expect(await failure(h.tier.client.acceptInboundCall(request, h.tier.inWorkspace(request.workspaceId)))).toMatchObject({ code: Code.PermissionDenied });
  const elsewhere = h.tier.as({ workspaceId: newId(), principal: { type: 'internal', id: 'telephony', name: 'telephony' }, scopes: null });
  expect(await failure(h.tier.client.acceptInboundCall(request, elsewhere))).toMatchObject({ code: Code.PermissionDenied });
  expect(await failure(h.tier.client.acceptInboundCall({ ...request, from: 'x', legId: '' }, telephony))).toMatchObject({ code: Code.InvalidArgument, fields: [{ field: 'from' }, { field: 'leg_id' }].map(expect.objectContaining) });
});

test('metadata is kept with the call under POST /calls limits; the same leg with other metadata is refused', async () => {
  const { request, telephony } = inbound();
  const metadata: JsonObject = { sandbox_script: [{ say: 'Hello?' }, { hangup: 'caller' }] };
  const accepted = await h.tier.client.acceptInboundCall({ ...request, metadata }, telephony);
  expect((await h.store.getCall(request.workspaceId, accepted.callId))!.metadata).toEqual(metadata);
  expect(await h.tier.client.acceptInboundCall({ ...request, metadata: { other: true } }, telephony)).toMatchObject({ callId: '', refusal: expect.stringContaining('other details') });
  const large = inbound();
  expect(await failure(h.tier.client.acceptInboundCall({ ...large.request, metadata: { blob: 'x'.repeat(20_000) } }, large.telephony))).toMatchObject({
    code: Code.InvalidArgument,
    fields: [expect.objectContaining({ field: 'metadata' })],
  });
});
