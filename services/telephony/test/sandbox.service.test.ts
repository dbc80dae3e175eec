// Tier 2: SandboxService through Connect's router transport with the signed-caller check, a SQLite
// store, the sandbox carrier and a calls service double: a simulated call to a number given to an
// assistant is handed over like a carrier's inbound call (the ringing leg, AcceptInboundCall) and
// picked up by the sandbox carrier; refusals and what no real caller could reach are errors, with a
// refused call's leg canceled; another workspace's numbers and caller IDs are not found.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SandboxService } from '@voice/proto/voice/telephony/v1/sandbox';
import { SecretBox } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import type { LegChange } from '../src/domain/call-legs.js';
import { openSqliteTelephonyStore } from '../src/store/sqlite.js';
import { eventually } from '../../../test/support/telephony.js';
import { CallsDouble } from './calls-double.js';
import { callerIdRecord, connectionRecord, numberRecord } from './store.contract.js';
import { failure, sandboxCarriers, setupService } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'telephony-sandbox-'));
const store = openSqliteTelephonyStore(join(dir, 'telephony.sqlite'));
const box = new SecretBox(randomBytes(32));
const reports: { legId: string; change: LegChange }[] = [];
// No voice runtime: an answered sandbox call fails at once, which ends the tests' calls.
const carriers = sandboxCarriers(box, { onCallProgress: async (legId, change) => void reports.push({ legId, change }) });
const calls = new CallsDouble();
const sandbox = setupService(SandboxService, { store, box, carriers, calls });
const withoutCalls = setupService(SandboxService, { store, box, carriers });

afterEach(() => {
  calls.refuse = false;
});
afterAll(async () => {
  await sandbox.close();
  await withoutCalls.close();
  carriers.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const caller = '+12025550171';
let numberSequence = 0;
/** A valid US number (the contract's records carry placeholders the phone rules refuse). */
const validNumber = () => `+1415555${String(1000 + (numberSequence += 1)).padStart(4, '0')}`;

async function assignedNumber(overrides: Parameters<typeof numberRecord>[1] = {}) {
  const workspace = newId();
  const number = numberRecord(workspace, { number: validNumber(), assistantId: newId(), ...overrides });
  await store.insertNumber(number);
  return { workspace, number };
}

test('a simulated call is handed over as an inbound call and picked up by the sandbox carrier', async () => {
  const { workspace, number } = await assignedNumber();
  const { callId } = await sandbox.client.simulateInboundCall({ from: caller, to: number.number }, sandbox.inWorkspace(workspace));
  expect(calls.offered.at(-1)).toMatchObject({ workspaceId: workspace, numberId: number.id, assistantId: number.assistantId, from: caller, to: number.number });
  const leg = (await store.getLegOfCall(workspace, callId))!;
  expect(leg).toMatchObject({ id: calls.offered.at(-1)!.legId, direction: 'inbound', numberId: number.id, carrierConnectionId: null, from: caller, to: number.number });
  expect(leg.carrierCallId).toMatch(/^CA[0-9a-f]{32}$/);
  const moves = await eventually(async () => {
    const ofLeg = reports.filter((report) => report.legId === leg.id).map((report) => report.change.status);
    return ofLeg.length >= 2 ? ofLeg : undefined;
  });
  expect(moves).toEqual(['in_progress', 'failed']);
});

test('a refused call is 409 with the calls service’s reason and leaves its leg canceled; without the calls service it is 503', async () => {
  const { workspace, number } = await assignedNumber();
  calls.refuse = true;
  expect(await failure(sandbox.client.simulateInboundCall({ from: caller, to: number.number }, sandbox.inWorkspace(workspace)))).toMatchObject({
    reason: 'conflict',
    message: expect.stringContaining('no funds'),
  });
  const legId = calls.offered.at(-1)!.legId;
  expect((await store.getLeg(legId))!.status).toBe('canceled');
  const offers = calls.offered.length;
  expect(await failure(withoutCalls.client.simulateInboundCall({ from: caller, to: number.number }, withoutCalls.inWorkspace(workspace)))).toMatchObject({ reason: 'telephony_unavailable' });
  expect(calls.offered).toHaveLength(offers);
});

test('what no real caller could reach is refused before anything is handed over', async () => {
  const { workspace, number } = await assignedNumber();
  const offers = calls.offered.length;
  const simulate = (to: string, from = caller, as = workspace) => failure(sandbox.client.simulateInboundCall({ from, to }, sandbox.inWorkspace(as)));
  const malformed = await simulate('4155550100', 'caller');
  expect(malformed.reason).toBe('invalid_request');
  expect(malformed.fields.map((issue: { field: string }) => issue.field).sort()).toEqual(['from', 'to']);
  const tooLarge = await failure(sandbox.client.simulateInboundCall({ from: caller, to: number.number, metadata: { blob: 'x'.repeat(20_000) } }, sandbox.inWorkspace(workspace)));
  expect(tooLarge).toMatchObject({ reason: 'invalid_request', fields: [expect.objectContaining({ field: 'metadata' })] });
  expect(await simulate(number.number, caller, newId())).toMatchObject({ reason: 'not_found' });
  const unassigned = numberRecord(workspace, { number: validNumber(), assistantId: null });
  const smsOnly = numberRecord(workspace, { number: validNumber(), voiceCapable: false, assistantId: newId() });
  const connection = connectionRecord(workspace, { sealedAccountSid: box.seal('ACsandboxtest'), sealedAuthToken: box.seal('token') });
  await store.insertConnection(connection);
  const twilioNumber = numberRecord(workspace, { number: validNumber(), source: 'imported', carrierConnectionId: connection.id, assistantId: newId() });
  for (const record of [unassigned, smsOnly, twilioNumber]) await store.insertNumber(record);
  expect(await simulate(unassigned.number)).toMatchObject({ reason: 'telephony_configuration_error', message: expect.stringContaining('no assistant') });
  expect(await simulate(smsOnly.number)).toMatchObject({ reason: 'telephony_configuration_error', message: expect.stringContaining('not voice-capable') });
  expect(await simulate(twilioNumber.number)).toMatchObject({ reason: 'telephony_configuration_error', message: expect.stringContaining('not carried by the sandbox') });
  expect(calls.offered).toHaveLength(offers);
});

test('a verification call is shown only for the workspace’s own caller ID, and only once the sandbox made one', async () => {
  const workspace = newId();
  const callerId = callerIdRecord(workspace, { phoneNumber: validNumber() });
  await store.insertCallerId(callerId);
  expect(await failure(sandbox.client.getVerificationCall({ callerId: callerId.id }, sandbox.inWorkspace(workspace)))).toMatchObject({ reason: 'not_found' });
  await carriers.platform().placeSpokenCall({ from: '+15005550006', to: callerId.phoneNumber, speech: 'Your verification code is 1, 2, 3, 4, 5, 6.', reference: callerId.id });
  const { call } = await sandbox.client.getVerificationCall({ callerId: callerId.id }, sandbox.inWorkspace(workspace));
  expect(call).toMatchObject({ from: '+15005550006', to: callerId.phoneNumber, speech: 'Your verification code is 1, 2, 3, 4, 5, 6.' });
  expect(await failure(sandbox.client.getVerificationCall({ callerId: callerId.id }, sandbox.inWorkspace(newId())))).toMatchObject({ reason: 'not_found' });
  expect(await failure(sandbox.client.getVerificationCall({ callerId: 'not-a-uuid' }, sandbox.inWorkspace(workspace)))).toMatchObject({ reason: 'not_found' });
});
