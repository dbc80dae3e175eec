// Tier 2: CallerIdService through Connect's router transport with the signed-caller check, a SQLite
// store, the sandbox carrier and recorded billing holds: the code's SMS held and captured, a send
// that fails leaving nothing behind and its hold released, billing away (503), codes checked against
// a clock the test moves, and the code said in a call instead.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { CallerIdService } from '@voice/proto/voice/telephony/v1/caller_ids';
import { SecretBox } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import { BillingUnreachable, type BillingHolds, type HoldRequest } from '../src/billing/holds.js';
import { sandboxDestinations, type SandboxCarrier } from '../src/carriers/sandbox.js';
import { telephonyRoutes } from '../src/routes.js';
import { openSqliteTelephonyStore } from '../src/store/sqlite.js';
import { routerClient } from '../../runtime/test/service-tiers.js';
import { failure, sandboxCarriers, telephonyDeps } from './harness.js';

/** Grants holds unless told to refuse or to be unreachable; keeps what was asked. */
class RecordedHolds implements BillingHolds {
  readonly authorized: HoldRequest[] = [];
  readonly released: string[] = [];
  answer: 'held' | 'refused' | 'unreachable' = 'held';

  async authorize(request: HoldRequest) {
    this.authorized.push(request);
    if (this.answer === 'unreachable') throw new BillingUnreachable(new Error('billing is down'));
    return this.answer === 'held' ? { kind: 'held' as const } : { kind: 'refused' as const, availableUnits: 5 };
  }

  async release(request: { holdId: string }) {
    this.released.push(request.holdId);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'telephony-caller-ids-'));
const store = openSqliteTelephonyStore(join(dir, 'telephony.sqlite'));
const box = new SecretBox(randomBytes(32));
const carriers = sandboxCarriers(box);
const holds = new RecordedHolds();
let offsetMs = 0;
const tier = routerClient(CallerIdService, telephonyRoutes(telephonyDeps({ store, box, carriers, holds, now: () => new Date(Date.now() + offsetMs) })));
const { client } = tier;

afterEach(() => {
  holds.answer = 'held';
  offsetMs = 0;
});
afterAll(async () => {
  carriers.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const pendingEvents = async () => (await store.outbox.pending(10_000)).map((event) => event.subject);

test('the code’s SMS is held at the SMS price and its capture enters the outbox; the code is kept only as a hash', async () => {
  const workspace = newId();
  const before = (await pendingEvents()).length;
  const { callerId } = await client.createCallerId({ phoneNumber: '+442071838751', label: 'London', method: 'sms' }, tier.inWorkspace(workspace));
  expect(holds.authorized.at(-1)).toMatchObject({ workspaceId: workspace, holdId: callerId!.id, kind: 'sms.outbound', creditUnits: 100, reference: callerId!.id });
  expect(await pendingEvents()).toHaveLength(before + 1);
  const stored = await store.getCallerId(workspace, callerId!.id);
  expect(stored!.codeHash).toMatch(/^[0-9a-f]{64}$/);
});

test('a send the carrier refuses leaves no caller ID and gives the hold back; a refused hold sends nothing', async () => {
  const workspace = newId();
  const blocked = await failure(client.createCallerId({ phoneNumber: sandboxDestinations.blocked, label: '', method: 'sms' }, tier.inWorkspace(workspace)));
  expect(blocked).toMatchObject({ reason: 'destination_forbidden' });
  expect(holds.released).toContain(holds.authorized.at(-1)!.holdId);
  expect((await store.listCallerIds(workspace, { limit: 10, offset: 0 })).total).toBe(0);

  holds.answer = 'refused';
  expect(await failure(client.createCallerId({ phoneNumber: '+442071838752', label: '', method: 'sms' }, tier.inWorkspace(workspace)))).toMatchObject({ reason: 'conflict' });
  holds.answer = 'unreachable';
  expect(await failure(client.createCallerId({ phoneNumber: '+442071838752', label: '', method: 'sms' }, tier.inWorkspace(workspace)))).toMatchObject({ reason: 'telephony_unavailable' });
  expect((await store.listCallerIds(workspace, { limit: 10, offset: 0 })).total).toBe(0);
});

test('a code stops working 10 minutes after it was sent', async () => {
  const workspace = newId();
  const { callerId } = await client.createCallerId({ phoneNumber: '+442071838753', label: '', method: 'sms' }, tier.inWorkspace(workspace));
  offsetMs = 10 * 60_000;
  expect(await failure(client.verifyCallerId({ id: callerId!.id, code: '000000' }, tier.inWorkspace(workspace)))).toMatchObject({ reason: 'conflict' });
  expect((await store.getCallerId(workspace, callerId!.id))!.attempts).toBe(0);
});

test('method call: the platform’s carrier says the code to the number, nothing is held, and the code heard verifies; a refused call leaves nothing', async () => {
  const workspace = newId();
  const held = holds.authorized.length;
  const { callerId } = await client.createCallerId({ phoneNumber: '+442071838754', label: '', method: 'call' }, tier.inWorkspace(workspace));
  expect(callerId).toMatchObject({ method: 'call', status: 'pending', attemptsRemaining: 5 });
  const heard = (carriers.platform() as SandboxCarrier).heardCall(callerId!.id)!;
  expect(heard).toMatchObject({ from: '+15005550006', to: '+442071838754', reference: callerId!.id });
  const code = /code is (\d), (\d), (\d), (\d), (\d), (\d)\./.exec(heard.speech)!.slice(1).join('');
  expect(holds.authorized).toHaveLength(held);
  expect((await client.verifyCallerId({ id: callerId!.id, code }, tier.inWorkspace(workspace))).callerId).toMatchObject({ status: 'verified' });

  expect(await failure(client.createCallerId({ phoneNumber: sandboxDestinations.blocked, label: '', method: 'call' }, tier.inWorkspace(workspace)))).toMatchObject({ reason: 'destination_forbidden' });
  expect((await store.listCallerIds(workspace, { limit: 10, offset: 0 })).total).toBe(1);
});
