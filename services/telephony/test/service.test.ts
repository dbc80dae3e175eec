// Tier 2: the telephony service's routes over an in-memory Connect transport, with the real
// signed-caller interceptor, a SQLite store and the sandbox carrier; billing's holds are granted and
// recorded (harness.ts). Numbers, SMS and the suppression list as callers see them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Code } from '@connectrpc/connect';
import { SecretBox } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import { openSqliteTelephonyStore } from '../src/store/sqlite.js';
import { failure, GrantedHolds, sandboxCarriers, setup, type TelephonyTier } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'telephony-service-'));
const store = openSqliteTelephonyStore(join(dir, 'telephony.sqlite'));
const box = new SecretBox(randomBytes(32));
const carriers = sandboxCarriers(box);
const holds = new GrantedHolds();
let tier: TelephonyTier;

beforeAll(async () => {
  tier = await setup({ store, box, carriers, holds });
});
afterAll(async () => {
  await tier.close();
  carriers.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Buys the first GB number the sandbox offers to the workspace. */
async function boughtNumber(workspaceId: string) {
  const [offer] = (await tier.client.searchAvailableNumbers({ country: 'GB', limit: 1 }, tier.inWorkspace(workspaceId))).numbers;
  return (await tier.client.buyNumber({ number: offer!.number }, tier.inWorkspace(workspaceId))).number!;
}

test('every call needs a signed caller naming a workspace', async () => {
  expect((await failure(tier.client.listNumbers({}))).code).toBe(Code.Unauthenticated);
  expect(await failure(tier.client.listNumbers({}, tier.internal))).toMatchObject({ code: Code.Unauthenticated, reason: 'unauthorized' });
});

test('a number found by search is bought, read and released; another workspace never sees it', async () => {
  const [mine, theirs] = [newId(), newId()];
  const number = await boughtNumber(mine);
  expect((await tier.client.getNumber({ id: number.id }, tier.inWorkspace(mine))).number).toMatchObject({ id: number.id, number: number.number, source: 'marketplace' });
  expect(await failure(tier.client.getNumber({ id: number.id }, tier.inWorkspace(theirs)))).toMatchObject({ code: Code.NotFound, reason: 'not_found' });
  expect(await failure(tier.client.releaseNumber({ id: number.id }, tier.inWorkspace(theirs)))).toMatchObject({ code: Code.NotFound, reason: 'not_found' });
  expect((await tier.client.listNumbers({}, tier.inWorkspace(theirs))).total).toBe(0);
  const search = await tier.client.searchAvailableNumbers({ country: 'GB', limit: 50 }, tier.inWorkspace(theirs));
  expect(search.numbers.map((offer) => offer.number)).not.toContain(number.number);
  await tier.client.releaseNumber({ id: number.id }, tier.inWorkspace(mine));
  expect(await failure(tier.client.getNumber({ id: number.id }, tier.inWorkspace(mine)))).toMatchObject({ code: Code.NotFound });
});

test('bad input is a 400 naming the field, and changes nothing', async () => {
  const workspace = newId();
  expect(await failure(tier.client.buyNumber({ number: 'not a number' }, tier.inWorkspace(workspace)))).toMatchObject({
    code: Code.InvalidArgument,
    reason: 'invalid_request',
    fields: [expect.objectContaining({ field: 'number' })],
  });
  expect(await failure(tier.client.listMessages({ status: 'lost' }, tier.inWorkspace(workspace)))).toMatchObject({
    code: Code.InvalidArgument,
    fields: [expect.objectContaining({ field: 'status' })],
  });
  expect((await tier.client.listNumbers({}, tier.inWorkspace(workspace))).total).toBe(0);
});

test('an SMS is held and sent once per Idempotency-Key; a suppressed destination is refused and nothing is held for it', async () => {
  const workspace = newId();
  const number = await boughtNumber(workspace);
  await tier.client.updateNumber({ id: number.id, smsOutboundEnabled: true }, tier.inWorkspace(workspace));
  const send = { fromNumberId: number.id, to: '+442071838750', body: 'Your table is ready', idempotencyKey: `key-${newId()}` };
  const heldBefore = holds.requests.length;

  const first = await tier.client.sendSms(send, tier.inWorkspace(workspace));
  expect(first).toMatchObject({ replayed: false, message: { from: number.number, to: '+442071838750', status: 'queued' } });
  const again = await tier.client.sendSms(send, tier.inWorkspace(workspace));
  expect(again).toMatchObject({ replayed: true, message: { id: first.message!.id } });
  expect(holds.requests.slice(heldBefore)).toEqual([expect.objectContaining({ workspaceId: workspace, holdId: first.message!.id, creditUnits: 100 })]);
  expect((await tier.client.getMessage({ id: first.message!.id }, tier.inWorkspace(workspace))).message).toMatchObject({ id: first.message!.id });

  await tier.client.addSuppression({ number: '+442071838751', reason: 'asked to stop' }, tier.inWorkspace(workspace));
  const refused = await failure(tier.client.sendSms({ ...send, to: '+442071838751', idempotencyKey: '' }, tier.inWorkspace(workspace)));
  expect(refused).toMatchObject({ code: Code.PermissionDenied, reason: 'destination_forbidden' });
  expect(holds.requests.length).toBe(heldBefore + 1);
  expect((await tier.client.listMessages({}, tier.inWorkspace(workspace))).total).toBe(1);
});
