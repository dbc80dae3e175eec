// Billing and its events over the real NATS JetStream server on 127.0.0.1:4222: with billing
// stopped no send is accepted (its price cannot be held) and the carrier is never asked; billing
// stopped after a send's hold and before its capture still gets the capture exactly once when it
// returns; a usage event delivered twice is charged once; restarting the producer (its outbox
// relay) mid-stream loses nothing.
import { create, toBinary } from '@bufbuild/protobuf';
import { connect, type NatsConnection } from 'nats';
import { UsageEventSchema } from '@voice/proto/voice/billing/v1/events';
import { usageStream, usageSubject } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { expectError } from './support/api-client.js';
import { importedSmsNumber, startFakeTwilio, type FakeTwilio } from './support/fake-twilio.js';
import { deleteNamespaceStreams } from './support/nats-namespace.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { balance, buySmsNumber, eventually, ledger, ledgerWith, settledBalance } from './support/telephony.js';

const natsUrl = 'nats://127.0.0.1:4222';
// A namespace of its own keeps this run's streams and durables apart from every other run's.
const namespace = `e2e_${newId().slice(0, 8)}`;
const destination = '+442071838750';

let platform: TestPlatform;
let admin: NatsConnection;
let carrier: FakeTwilio;

beforeAll(async () => {
  admin = await connect({ servers: natsUrl, name: 'billing-events-test' });
  carrier = await startFakeTwilio();
  // Numbers are free here: this file counts SMS charges (test/number-fees.test.ts covers the monthly fees).
  platform = await startTestPlatform({
    VOICE_NUMBER_MONTHLY_CREDITS: '0',
    NATS_URL: natsUrl,
    VOICE_EVENT_NAMESPACE: namespace,
    VOICE_RATE_LIMITS: 'starter=100000,pro=100000,enterprise=100000',
    // The carrier account on loopback, which records every message it is asked to send.
    VOICE_EGRESS_ALLOW_PRIVATE: 'true',
  });
});
afterAll(async () => {
  await platform?.close();
  await carrier?.close();
  await admin.close();
  await deleteNamespaceStreams(namespace, natsUrl);
});

afterEach(() => {
  carrier.answerDelayMs = 0;
});

let importedSequence = 0;
/** A funded workspace sending from a number imported through the carrier on loopback (0.0100 a segment). */
async function carrierSender(credits: string) {
  const workspace = await platform.workspace();
  await platform.fund(workspace.id, credits);
  const number = await importedSmsNumber(platform.api, workspace.key, carrier, `+1415555${String(200 + (importedSequence += 1)).padStart(4, '0')}`);
  return { ...workspace, number };
}

/** What the carrier was asked to send from this number. */
const sentFrom = (number: string) => carrier.sentMessages().filter((message) => message.From === number);

async function sender(credits: string) {
  const workspace = await platform.workspace();
  await platform.fund(workspace.id, credits);
  const number = await buySmsNumber(platform.api, workspace.key);
  return { ...workspace, number };
}

const sendMany = async (key: string, fromNumberId: string, count: number, label: string, concurrency = 10) => {
  const statuses: number[] = [];
  for (let start = 0; start < count; start += concurrency) {
    const batch = Array.from({ length: Math.min(concurrency, count - start) }, (_, index) =>
      platform.api.post('/sms/send', key, { from_number_id: fromNumberId, to: destination, body: `${label} ${start + index}` }),
    );
    statuses.push(...(await Promise.all(batch)).map((response) => response.status));
  }
  return statuses;
};

test('billing stopped: sends are 503 telephony_unavailable with Retry-After, the carrier is never asked, nothing is held or charged', async () => {
  const { key, number } = await carrierSender('1.0000');
  const from = (await platform.api.get(`/phone-numbers/${number.id}`, key)).body.data.number as string;
  expect((await platform.api.post('/sms/send', key, { from_number_id: number.id, to: destination, body: 'before' })).status).toBe(202);
  await ledgerWith(platform.api, key, 'sms.outbound', 1);

  await platform.running.stopService('billing');
  try {
    for (let index = 0; index < 10; index += 1) {
      const refused = await platform.api.post('/sms/send', key, { from_number_id: number.id, to: destination, body: `while billing is down ${index}` }, { headers: { 'Idempotency-Key': `down-${index}` } });
      expectError(refused, 503, 'telephony_unavailable');
      expect(refused.headers.get('retry-after')).toBe('1');
    }
    expect(sentFrom(from)).toHaveLength(1);
    expect((await platform.api.get('/sms/messages', key)).body.meta.pagination.total).toBe(1);
  } finally {
    await platform.running.startService('billing');
  }
  // Nothing was charged and nothing is held; a refused attempt did not bind its key.
  expect(await balance(platform.api, key)).toEqual(settledBalance('0.9900'));
  const retried = await platform.api.post('/sms/send', key, { from_number_id: number.id, to: destination, body: 'while billing is down 0' }, { headers: { 'Idempotency-Key': 'down-0' } });
  expect(retried.status).toBe(202);
  expect(retried.headers.get('idempotent-replayed')).toBeNull();
  await ledgerWith(platform.api, key, 'sms.outbound', 2);
  expect(await balance(platform.api, key)).toEqual(settledBalance('0.9800'));
  expect(sentFrom(from)).toHaveLength(2);
});

test('billing stopped between a send\'s hold and its capture: the send is accepted, and the capture lands once when billing is back', async () => {
  const { key, number } = await carrierSender('1.0000');
  const from = (await platform.api.get(`/phone-numbers/${number.id}`, key)).body.data.number as string;
  // The carrier takes the message at once but answers a second later: billing goes away meanwhile.
  carrier.answerDelayMs = 1_000;
  const sending = platform.api.post('/sms/send', key, { from_number_id: number.id, to: destination, body: 'held, then billing went away' });
  await eventually(async () => (sentFrom(from).length === 1 ? true : undefined), 5_000, 'the carrier to take the message');
  await platform.running.stopService('billing');
  let accepted;
  try {
    accepted = await sending;
    expect(accepted.status).toBe(202);
    // The capture waits in telephony's outbox and the stream while billing is away.
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    await platform.running.startService('billing');
  }
  const [debit] = await ledgerWith(platform.api, key, 'sms.outbound', 1);
  expect(debit).toMatchObject({ reference: accepted.body.data.id, credits: '-0.0100' });
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect((await ledger(platform.api, key)).filter((entry) => entry.kind === 'sms.outbound')).toHaveLength(1);
  expect(await balance(platform.api, key)).toEqual(settledBalance('0.9900'));
});

test('the same usage event delivered twice is charged once', async () => {
  const { id: workspaceId, key } = await sender('1.0000');
  const js = admin.jetstream();
  const event = create(UsageEventSchema, {
    eventId: newId(),
    workspaceId,
    kind: 'sms.outbound',
    creditUnits: 179n,
    reference: newId(),
    description: 'replayed by the test',
  });
  const payload = toBinary(UsageEventSchema, event);
  const subject = `${namespace}.${usageSubject('telephony', 'sms')}`;
  expect(usageStream.subjects[0]).toBe('usage.>');
  // Two different stream messages (as after a publish the stream's duplicate window no longer covers).
  await js.publish(subject, payload, { msgID: event.eventId });
  await js.publish(subject, payload, { msgID: `${event.eventId}-again` });
  await ledgerWith(platform.api, key, 'sms.outbound', 1);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect((await ledger(platform.api, key)).filter((entry) => entry.kind === 'sms.outbound')).toHaveLength(1);
  expect(await balance(platform.api, key)).toEqual(settledBalance('0.9821'));
});

test('telephony (and its outbox relay) restarted mid-stream: every accepted message is charged once', async () => {
  const { key, number } = await sender('10.0000');
  let accepted = 0;
  const statuses = new Set<number>();
  let restarted = false;
  // Sends go on, five at a time, until 200 were accepted; telephony stops and starts meanwhile.
  const sending = (async () => {
    while (accepted < 200) {
      const answers = await sendMany(key, number.id, 5, 'across a restart', 5);
      for (const status of answers) statuses.add(status);
      accepted += answers.filter((status) => status === 202).length;
      if (!restarted) await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  // Stopped mid-stream (some sends accepted), and started again once sends have met it stopped.
  await eventually(async () => (accepted > 0 ? true : undefined), 10_000, 'a first accepted send');
  await platform.running.stopService('telephony');
  await eventually(async () => (statuses.has(503) ? true : undefined), 10_000, 'a send refused while telephony is stopped');
  await platform.running.startService('telephony');
  restarted = true;
  await sending;
  // Requests that met the stopped service failed as unavailable; none failed otherwise.
  expect([...statuses].sort()).toEqual([202, 503]);
  const listed = await platform.api.get('/sms/messages?limit=1', key);
  expect(listed.body.meta.pagination.total).toBe(accepted);
  const debits = await ledgerWith(platform.api, key, 'sms.outbound', accepted, 60_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect((await ledger(platform.api, key)).filter((entry) => entry.kind === 'sms.outbound')).toHaveLength(accepted);
  expect(new Set(debits.map((entry) => entry.reference)).size).toBe(accepted);
}, 90_000);
