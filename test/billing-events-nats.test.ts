// Billing events over the real NATS JetStream server on 127.0.0.1:4222: sends keep working
// while billing is down and are charged exactly once when it returns; a usage event delivered
// twice is charged once; restarting the producer (its outbox relay) mid-stream loses nothing.
import { create, toBinary } from '@bufbuild/protobuf';
import { connect, type NatsConnection } from 'nats';
import { UsageEventSchema } from '@voice/proto/voice/billing/v1/events';
import { newId, usageStream, usageSubject } from '@voice/runtime';
import { deleteNamespaceStreams } from './support/nats-namespace.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { balance, buySmsNumber, eventually, ledger, ledgerWith, settledBalance } from './support/telephony.js';

const natsUrl = 'nats://127.0.0.1:4222';
// A namespace of its own keeps this run's streams and durables apart from every other run's.
const namespace = `e2e_${newId().slice(0, 8)}`;
const destination = '+442071838750';

let platform: TestPlatform;
let admin: NatsConnection;

beforeAll(async () => {
  admin = await connect({ servers: natsUrl, name: 'billing-events-test' });
  platform = await startTestPlatform({ NATS_URL: natsUrl, VOICE_EVENT_NAMESPACE: namespace, VOICE_RATE_LIMITS: 'starter=100000,pro=100000,enterprise=100000' });
});
afterAll(async () => {
  await platform?.close();
  await admin.close();
  await deleteNamespaceStreams(namespace, natsUrl);
});

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

test('billing stopped while 200 messages are sent: all are accepted, and exactly 200 debits follow its return', async () => {
  const { key, number } = await sender('10.0000');
  // Telephony learns the funded balance before billing goes away.
  await eventually(async () => ((await platform.api.post('/sms/send', key, { from_number_id: number.id, to: destination, body: 'warm-up' })).status === 202 ? true : undefined));
  await ledgerWith(platform.api, key, 'sms.outbound', 1);

  await platform.running.stopService('billing');
  expect((await platform.api.get('/balance', key)).status).toBe(503);
  const statuses = await sendMany(key, number.id, 200, 'while billing is down');
  expect(statuses.filter((status) => status === 202)).toHaveLength(200);

  await platform.running.startService('billing');
  await ledgerWith(platform.api, key, 'sms.outbound', 201, 60_000);
  // A redelivered event would arrive after the first copies: give it time to show before counting.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const debits = (await ledger(platform.api, key)).filter((entry) => entry.kind === 'sms.outbound');
  expect(debits).toHaveLength(201);
  expect(new Set(debits.map((entry) => entry.reference)).size).toBe(201);
  // 10.0000 - 201 x 0.0179
  expect(await balance(platform.api, key)).toEqual(settledBalance('6.4021'));
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
});
