// The recovery of interrupted sends, on a real SQLite store with the real sandbox carrier and a
// Twilio-shaped API on loopback: a send cut off after it began (and its price was held) is accepted
// and its hold captured when the carrier took it, abandoned with its hold released when it did not,
// retried when the carrier cannot be asked, and settled once when passes race each other or the
// send itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { UsageEventSchema } from '@voice/proto/voice/billing/v1/events';
import { SecretBox } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { SendRecovery } from '../src/sms/send-recovery.js';
import { smsStatusChangedEvent } from '../src/sms/status-events.js';
import { openSqliteTelephonyStore } from '../src/store/sqlite.js';
import type { MessageRecord, SendClaim, TelephonyStore } from '../src/store/store.js';
import type { CarrierDirectory } from '../src/carriers/directory.js';
import { sandboxCarriers, setup } from './harness.js';
import { messageRecord, numberRecord } from './store.contract.js';
import { startFakeTwilio, type FakeTwilio } from './support-carrier/twilio-server.js';

const recoveryAfterMs = 60_000;
const box = new SecretBox(randomBytes(32));
const logger = createLogger({ service: 'telephony-test', level: 'silent' });

let dir: string;
let store: TelephonyStore;
let carriers: CarrierDirectory;
let twilio: FakeTwilio;
let clockMs: number;
let workspaceId: string;
let relayWakes: number;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'telephony-recovery-'));
  store = openSqliteTelephonyStore(join(dir, 'telephony.sqlite'));
  carriers = directory();
  twilio = await startFakeTwilio();
  clockMs = Date.now();
  workspaceId = newId();
  relayWakes = 0;
});

afterEach(async () => {
  carriers.close();
  await twilio.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function directory(): CarrierDirectory {
  return sandboxCarriers(box, { allowPrivate: true });
}

function recovery(on = store, through = carriers): SendRecovery {
  return new SendRecovery({
    store: on,
    carriers: through,
    wakeRelay: () => relayWakes++,
    logger,
    afterMs: recoveryAfterMs,
  });
}

const passTime = () => {
  clockMs += recoveryAfterMs + 1;
};

function message(overrides: Partial<MessageRecord> = {}): MessageRecord {
  const at = new Date(clockMs).toISOString();
  return messageRecord(workspaceId, { from: '+14155550100', to: '+442071838750', body: 'Your table is ready', creditUnits: 150, createdAt: at, updatedAt: at, ...overrides });
}

const claim = (key: string): SendClaim => ({ key, fingerprint: 'fp', now: new Date(clockMs).toISOString(), expiredBefore: '2000-01-01T00:00:00.000Z' });

/** Begins a send as the handler does, and stops there: the process "dies" before the carrier's answer is recorded. */
async function interrupted(overrides: Partial<MessageRecord> = {}, key?: string): Promise<MessageRecord> {
  const sent = message(overrides);
  expect(await store.beginSend(sent, key === undefined ? undefined : claim(key))).toEqual({ kind: 'begun' });
  return sent;
}

const pendingEvents = async () => store.outbox.pending(1000);

/** The holds the outbox settles: captures of a price and releases (0). */
const settlements = async () =>
  (await pendingEvents()).map((event) => {
    const usage = fromBinary(UsageEventSchema, event.payload);
    return { holdId: usage.holdId, workspaceId: usage.workspaceId, kind: usage.kind, creditUnits: Number(usage.creditUnits), reference: usage.reference };
  });

async function twilioConnection(): Promise<string> {
  const id = newId();
  const at = new Date(clockMs).toISOString();
  await store.insertConnection({
    id,
    workspaceId,
    name: 'Our Twilio',
    provider: 'twilio',
    baseUrl: twilio.baseUrl,
    sealedAccountSid: box.seal('AC0123456789abcdef0123456789abcdef'),
    sealedAuthToken: box.seal('f00dfeedf00dfeedf00dfeedf00dfeed'),
    createdAt: at,
    updatedAt: at,
  });
  return id;
}

const listing = (sid: string, sent: MessageRecord) => ({
  status: 200,
  json: { messages: [{ sid, body: sent.body, from: sent.from, to: sent.to, date_created: new Date(clockMs).toUTCString() }], next_page_uri: null },
});

test('a send the carrier took before the process died is accepted and its hold captured once, and its key replays it', async () => {
  const sent = await interrupted({}, 'key-taken');
  const { carrierMessageId } = await carriers.platform().sendSms({ from: sent.from, to: sent.to, body: sent.body });
  passTime();

  expect(await recovery().runPass(new Date(clockMs))).toEqual({ accepted: 1, abandoned: 0, deferred: 0, settledElsewhere: 0 });
  const recovered = await store.getMessage(workspaceId, sent.id);
  expect(recovered).toMatchObject({ status: 'queued', carrierMessageId, creditUnits: 150 });
  expect(await settlements()).toEqual([{ holdId: sent.id, workspaceId, kind: 'sms.outbound', creditUnits: 150, reference: sent.id }]);
  expect(relayWakes).toBe(1);
  expect(await store.beginSend(message(), claim('key-taken'))).toEqual({ kind: 'replayed', message: recovered });

  // Nothing is left to recover.
  passTime();
  expect(await recovery().runPass(new Date(clockMs))).toEqual({ accepted: 0, abandoned: 0, deferred: 0, settledElsewhere: 0 });
  expect(await pendingEvents()).toHaveLength(1);
});

test('a send the carrier never took is abandoned: its hold released, the key free for a retry', async () => {
  const sent = await interrupted({ creditUnits: 400 }, 'key-lost');
  passTime();

  expect(await recovery().runPass(new Date(clockMs))).toEqual({ accepted: 0, abandoned: 1, deferred: 0, settledElsewhere: 0 });
  expect(await store.interruptedSends(new Date(clockMs).toISOString(), 10)).toEqual([]);
  expect(await store.getMessage(workspaceId, sent.id)).toBeUndefined();
  expect(await settlements()).toEqual([{ holdId: sent.id, workspaceId, kind: 'sms.outbound', creditUnits: 0, reference: sent.id }]);
  expect(relayWakes).toBe(1);
  expect(await store.beginSend(message(), claim('key-lost'))).toEqual({ kind: 'begun' });
});

test('sends younger than the recovery age may still be in flight and are left alone', async () => {
  const sent = await interrupted();
  clockMs += recoveryAfterMs - 1_000;
  expect(await recovery().runPass(new Date(clockMs))).toEqual({ accepted: 0, abandoned: 0, deferred: 0, settledElsewhere: 0 });
  expect(await store.interruptedSends(new Date(clockMs).toISOString(), 10)).toEqual([sent]);
  expect(await pendingEvents()).toEqual([]);
});

test("a message of the same text already recorded for another send is not taken for the interrupted one", async () => {
  const first = message();
  await store.beginSend(first);
  const { carrierMessageId } = await carriers.platform().sendSms({ from: first.from, to: first.to, body: first.body });
  await store.acceptSend(first.id, carrierMessageId, undefined, first.createdAt, smsStatusChangedEvent);
  const second = await interrupted();
  passTime();

  expect(await recovery().runPass(new Date(clockMs))).toMatchObject({ accepted: 0, abandoned: 1 });
  expect(await store.getMessage(workspaceId, second.id)).toBeUndefined();
  expect(await store.getMessage(workspaceId, first.id)).toMatchObject({ status: 'queued', carrierMessageId });
});

test('a carrier that cannot be asked leaves the send (and its hold) waiting until a later pass can ask it', async () => {
  const connectionId = await twilioConnection();
  const sent = await interrupted({ carrierConnectionId: connectionId });
  passTime();

  twilio.handle = () => ({ status: 503, json: { message: 'down' } });
  expect(await recovery().runPass(new Date(clockMs))).toEqual({ accepted: 0, abandoned: 0, deferred: 1, settledElsewhere: 0 });
  expect(await pendingEvents()).toEqual([]);
  expect(await store.interruptedSends(new Date(clockMs).toISOString(), 10)).toHaveLength(1);

  twilio.handle = () => listing('SMfromtwilio', sent);
  expect(await recovery().runPass(new Date(clockMs))).toMatchObject({ accepted: 1, deferred: 0 });
  expect(await store.getMessage(workspaceId, sent.id)).toMatchObject({ status: 'queued', carrierMessageId: 'SMfromtwilio', carrierConnectionId: connectionId });
  expect(await settlements()).toEqual([expect.objectContaining({ holdId: sent.id, creditUnits: 150 })]);
  const asked = twilio.received.filter((request) => request.method === 'GET').at(-1)!;
  expect(Object.fromEntries(asked.query)).toMatchObject({ From: sent.from, To: sent.to });
});

test('a send whose carrier connection was deleted cannot be asked about and is abandoned', async () => {
  const sent = await interrupted({ carrierConnectionId: newId() });
  passTime();
  expect(await recovery().runPass(new Date(clockMs))).toMatchObject({ abandoned: 1 });
  expect(await settlements()).toEqual([expect.objectContaining({ holdId: sent.id, creditUnits: 0 })]);
  expect(await store.getMessage(workspaceId, sent.id)).toBeUndefined();
});

test('passes of two replicas racing over the same sends settle each one once', async () => {
  const sends = [];
  const platform = carriers.platform();
  for (let i = 0; i < 10; i++) {
    const sent = await interrupted({ body: `message ${i}` });
    // The carrier took the even ones.
    if (i % 2 === 0) await platform.sendSms({ from: sent.from, to: sent.to, body: sent.body });
    sends.push(sent);
  }
  passTime();
  const otherReplica = openSqliteTelephonyStore(join(dir, 'telephony.sqlite'));
  try {
    const passes = await Promise.all([recovery().runPass(new Date(clockMs)), recovery(otherReplica).runPass(new Date(clockMs))]);
    const total = (field: 'accepted' | 'abandoned' | 'settledElsewhere') => passes.reduce((sum, pass) => sum + pass[field], 0);
    expect(total('accepted')).toBe(5);
    expect(total('abandoned') + total('settledElsewhere')).toBeGreaterThanOrEqual(5);
    // Each send settled once: a capture for each one taken, a release for each one not.
    const settled = await settlements();
    expect(settled).toHaveLength(10);
    expect(new Set(settled.map((settlement) => settlement.holdId)).size).toBe(10);
    for (const [i, sent] of sends.entries()) {
      expect(settled.find((settlement) => settlement.holdId === sent.id)?.creditUnits).toBe(i % 2 === 0 ? 150 : 0);
    }
    for (const [i, sent] of sends.entries()) {
      expect((await store.getMessage(workspaceId, sent.id))?.status).toBe(i % 2 === 0 ? 'queued' : undefined);
    }
  } finally {
    await otherReplica.close();
  }
});

test('a send that outlives the recovery age answers with the message the recovery accepted, billed once', async () => {
  const connectionId = await twilioConnection();
  const number = numberRecord(workspaceId, { number: '+14155550100', source: 'imported', smsOutboundEnabled: true, carrierConnectionId: connectionId });
  await store.insertNumber(number);
  const tier = await setup({
    store,
    box,
    carriers,
    pricing: { feePerSegmentUnits: 150, carrierPerSegmentUnits: 0, numberMonthlyUnits: 0 },
    wakeRelay: () => relayWakes++,
    // The send starts at the test's clock, which the pass then moves past the recovery age.
    now: () => new Date(clockMs),
  });

  // The carrier takes the message at once but its answer is slow; meanwhile a pass finds the send old.
  let listed: MessageRecord | undefined;
  twilio.handle = (request) => {
    if (request.method === 'POST') return { status: 201, json: { sid: 'SMslow' }, delayMs: 500 };
    return listed ? listing('SMslow', listed) : { status: 200, json: { messages: [], next_page_uri: null } };
  };
  const sending = tier.client.sendSms({ fromNumberId: number.id, to: '+442071838750', body: 'Your table is ready', idempotencyKey: '' }, tier.inWorkspace(workspaceId));
  while (!twilio.received.some((request) => request.method === 'POST')) await new Promise((resolve) => setTimeout(resolve, 5));
  listed = (await store.interruptedSends(new Date(clockMs + 1).toISOString(), 10))[0];
  expect(listed).toBeDefined();
  passTime();
  expect(await recovery().runPass(new Date(clockMs))).toMatchObject({ accepted: 1 });

  const answer = await sending;
  expect(answer.message).toMatchObject({ id: listed!.id, status: 'queued' });
  expect(await settlements()).toEqual([expect.objectContaining({ holdId: listed!.id, creditUnits: 150 })]);
});
