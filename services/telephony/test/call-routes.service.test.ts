// Tier 2: CallRouteService over an in-memory Connect transport: the calls service asks whether a
// workspace may call from one of its numbers or verified caller IDs to a destination before it holds
// any funds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Code } from '@connectrpc/connect';
import { CallRouteService } from '@voice/proto/voice/telephony/v1/call_routes';
import { SecretBox } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import { telephonyRoutes } from '../src/routes.js';
import { openSqliteTelephonyStore } from '../src/store/sqlite.js';
import { routerClient } from '../../runtime/test/service-tiers.js';
import { callerIdRecord, numberRecord } from './store.contract.js';
import { failure, sandboxCarriers, setup, telephonyDeps, type TelephonyTier } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'telephony-call-routes-'));
const store = openSqliteTelephonyStore(join(dir, 'telephony.sqlite'));
const box = new SecretBox(randomBytes(32));
const carriers = sandboxCarriers(box);
let telephony: TelephonyTier;
const routes = routerClient(CallRouteService, telephonyRoutes(telephonyDeps({ store, box, carriers })));

beforeAll(async () => {
  telephony = await setup({ store, box, carriers }, 'router');
});
afterAll(async () => {
  await telephony.close();
  carriers.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const asCalls = (workspaceId: string) => routes.as({ workspaceId, principal: { type: 'internal', id: 'calls', name: 'calls' }, scopes: null });

test("a workspace calls from its own voice-capable number, never to a suppressed destination; public callers are refused", async () => {
  const [workspace, other] = [newId(), newId()];
  const own = (id: string) => telephony.inWorkspace(id);
  const [offer] = (await telephony.client.searchAvailableNumbers({ country: 'GB', limit: 1 }, own(workspace))).numbers;
  const number = (await telephony.client.buyNumber({ number: offer!.number }, own(workspace))).number!;
  expect(number.voiceCapable).toBe(true);

  expect(await routes.client.checkCallRoute({ from: number.number, to: '+442071838750' }, asCalls(workspace))).toMatchObject({ numberId: number.id });
  expect(await failure(routes.client.checkCallRoute({ from: number.number, to: '+442071838750' }, asCalls(other)))).toMatchObject({ code: Code.NotFound, reason: 'not_found' });
  expect(await failure(routes.client.checkCallRoute({ from: number.number, to: '+442071838750' }, routes.inWorkspace(workspace)))).toMatchObject({ reason: 'forbidden' });
  expect(await failure(routes.client.checkCallRoute({ from: 'nope', to: '+442071838750' }, asCalls(workspace)))).toMatchObject({
    code: Code.InvalidArgument,
    fields: [{ field: 'from', issue: expect.any(String) }],
  });

  await telephony.client.addSuppression({ number: '+442071838750' }, own(workspace));
  expect(await failure(routes.client.checkCallRoute({ from: number.number, to: '+442071838750' }, asCalls(workspace)))).toMatchObject({ reason: 'destination_forbidden' });
});

test('a number that cannot carry voice is a configuration error', async () => {
  const workspace = newId();
  const smsOnly = numberRecord(workspace, { voiceCapable: false, number: '+447911123456' });
  await store.insertNumber(smsOnly);
  expect(await failure(routes.client.checkCallRoute({ from: smsOnly.number, to: '+442071838750' }, asCalls(workspace)))).toMatchObject({
    code: Code.FailedPrecondition,
    reason: 'telephony_configuration_error',
  });
});

test('a verified caller ID routes through the platform’s carrier (no number id); a pending, failed or other workspace’s one is the unknown number’s 404', async () => {
  const [workspace, other] = [newId(), newId()];
  const verifiedAt = new Date().toISOString();
  const verified = callerIdRecord(workspace, { phoneNumber: '+447911123461', status: 'verified', verifiedAt });
  const pending = callerIdRecord(workspace, { phoneNumber: '+447911123462' });
  const failed = callerIdRecord(workspace, { phoneNumber: '+447911123463', status: 'failed', attempts: 5 });
  const othersVerified = callerIdRecord(other, { phoneNumber: '+447911123464', status: 'verified', verifiedAt });
  for (const callerId of [verified, pending, failed, othersVerified]) expect(await store.insertCallerId(callerId)).toEqual({ kind: 'created' });
  const destination = '+442071838751';

  expect(await routes.client.checkCallRoute({ from: verified.phoneNumber, to: destination }, asCalls(workspace))).toMatchObject({ numberId: '' });
  const unknown = await failure(routes.client.checkCallRoute({ from: '+447911123466', to: destination }, asCalls(workspace)));
  expect(unknown).toMatchObject({ code: Code.NotFound, reason: 'not_found' });
  for (const from of [pending.phoneNumber, failed.phoneNumber, othersVerified.phoneNumber]) {
    const refused = await failure(routes.client.checkCallRoute({ from, to: destination }, asCalls(workspace)));
    expect({ code: refused.code, reason: refused.reason, message: refused.message }).toEqual({ code: unknown.code, reason: unknown.reason, message: unknown.message });
  }

  await telephony.client.addSuppression({ number: destination }, telephony.inWorkspace(workspace));
  expect(await failure(routes.client.checkCallRoute({ from: verified.phoneNumber, to: destination }, asCalls(workspace)))).toMatchObject({ reason: 'destination_forbidden' });
});

test('a workspace number decides before a verified caller ID of the same number', async () => {
  const workspace = newId();
  const smsOnly = numberRecord(workspace, { voiceCapable: false, number: '+447911123465' });
  await store.insertNumber(smsOnly);
  await store.insertCallerId(callerIdRecord(workspace, { phoneNumber: smsOnly.number, status: 'verified', verifiedAt: new Date().toISOString() }));
  expect(await failure(routes.client.checkCallRoute({ from: smsOnly.number, to: '+442071838750' }, asCalls(workspace)))).toMatchObject({ reason: 'telephony_configuration_error' });
});

test('FilterSuppressed answers which of many numbers the workspace suppressed, to internal callers only', async () => {
  const [workspace, other] = [newId(), newId()];
  await telephony.client.addSuppression({ number: '+442071838760' }, telephony.inWorkspace(workspace));
  await telephony.client.addSuppression({ number: '+442071838761' }, telephony.inWorkspace(other));
  const numbers = ['+442071838760', '+442071838761', '+442071838762', 'not a number', '+442071838760'];
  expect((await routes.client.filterSuppressed({ numbers }, asCalls(workspace))).suppressed).toEqual(['+442071838760']);
  expect(await failure(routes.client.filterSuppressed({ numbers }, routes.inWorkspace(workspace)))).toMatchObject({ reason: 'forbidden' });
  const tooMany = Array.from({ length: 10_001 }, (_, i) => `+4420718${String(i).padStart(5, '0')}`);
  expect(await failure(routes.client.filterSuppressed({ numbers: tooMany }, asCalls(workspace)))).toMatchObject({ code: Code.InvalidArgument, fields: [{ field: 'numbers', issue: expect.any(String) }] });
});
