// Billing on the real NATS JetStream server at 127.0.0.1:4222, with the platform's USAGE and
// WALLETS streams and billing's own durable, in a namespace of this run's own (removed after).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { connect } from 'nats';
import { BillingService } from '@voice/proto/voice/billing/v1/billing';
import { UsageEventSchema, WalletChangedSchema, type UsageEvent, type WalletChanged } from '@voice/proto/voice/billing/v1/events';
import { callHeaders, CallerSigner } from '@voice/runtime/caller';
import {
  JetStreamEventStream,
  NamespacedEventStream,
  OutboxRelay,
  usageStream,
  usageSubject,
  walletStream,
  type Consumption,
} from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { openSqlite, SqliteOutbox, sqliteOutboxMigration } from '@voice/runtime/store/sqlite';
import { startBillingService, type StartedBilling } from '../src/main.js';
import { WorkspaceDirectory, waitFor } from './support.js';

const natsUrl = 'nats://127.0.0.1:4222';
const dir = mkdtempSync(join(tmpdir(), 'billing-jetstream-'));
const secret = randomBytes(32);
const signer = new CallerSigner(secret);
const silent = createLogger({ service: 'billing-jetstream-test', level: 'silent' });
const namespace = `billing_test_${randomBytes(4).toString('hex')}`;
const env = { DATA_DIR: dir, VOICE_BILLING_PORT: '0', VOICE_INTERNAL_SECRET: secret.toString('hex'), LOG_LEVEL: 'silent', NATS_URL: natsUrl, VOICE_EVENT_NAMESPACE: namespace };
const directory = new WorkspaceDirectory();
const walletDurable = `billing-test-${newId()}`;
const walletEvents: WalletChanged[] = [];

let producer: NamespacedEventStream;
let walletConsumption: Consumption | undefined;
let billing: StartedBilling | undefined;
let sessions: Http2SessionManager | undefined;
let client: Client<typeof BillingService>;

async function startBilling(): Promise<void> {
  billing = await startBillingService(env, { logger: silent, issuers: directory });
  sessions = new Http2SessionManager(billing.server.url);
  client = createClient(BillingService, createConnectTransport({ baseUrl: billing.server.url, httpVersion: '2', sessionManager: sessions }));
}

async function stopBilling(): Promise<void> {
  sessions?.abort();
  await billing?.close();
  billing = undefined;
}

beforeAll(async () => {
  producer = new NamespacedEventStream(await JetStreamEventStream.connect(natsUrl, 'billing-test-producer', silent), namespace);
  await producer.ensureStream(usageStream.name, usageStream.subjects);
});

afterAll(async () => {
  await stopBilling();
  await walletConsumption?.stop();
  await producer.close();
  const admin = await connect({ servers: natsUrl });
  const manager = await admin.jetstreamManager();
  for (const name of await manager.streams.names().next()) {
    if (name.startsWith(`${namespace}_`)) await manager.streams.delete(name);
  }
  await admin.close();
  rmSync(dir, { recursive: true, force: true });
});

const member = (workspaceId: string) => ({
  headers: callHeaders(signer, { workspaceId, principal: { type: 'service_account', id: 'key', name: 'key' }, scopes: null, requestId: newId() }),
});
const telephony = () => ({
  headers: callHeaders(signer, { workspaceId: '', principal: { type: 'internal', id: 'telephony', name: 'telephony' }, scopes: null, requestId: newId() }),
});

function usageEvent(workspaceId: string, creditUnits: number): UsageEvent {
  return create(UsageEventSchema, { eventId: newId(), workspaceId, kind: 'sms.outbound', creditUnits: BigInt(creditUnits), reference: `msg-${newId()}` });
}

const publish = (event: UsageEvent, messageId = event.eventId) =>
  producer.publish(usageSubject('telephony', 'sms'), toBinary(UsageEventSchema, event), messageId);

const ledgerOf = (workspaceId: string) => client.listTransactions({ page: { limit: 200, offset: 0 } }, member(workspaceId));

const waitForEntries = (workspaceId: string, count: number) =>
  waitFor(`${count} entries of ${workspaceId}`, async () => ((await ledgerOf(workspaceId)).total >= count ? true : undefined), 30_000);

test('usage published while billing is stopped is applied once each after it starts, and announced', async () => {
  const customer = directory.add();
  const published = Array.from({ length: 50 }, () => usageEvent(customer, 10));
  for (const event of published) expect((await publish(event)).duplicate).toBe(false);

  await startBilling();
  await waitForEntries(customer, 50);
  const ledger = await ledgerOf(customer);
  expect(ledger.total).toBe(50);
  expect(new Set(ledger.transactions.map((entry) => entry.reference))).toEqual(new Set(published.map((event) => event.reference)));
  expect((await client.getBalance({}, member(customer))).wallet).toMatchObject({ balance: { creditUnits: -500n }, version: 50n, issuer: false });

  walletConsumption = await producer.consume({
    stream: walletStream.name,
    durable: walletDurable,
    subjects: walletStream.subjects,
    handler: async (event) => {
      const changed = fromBinary(WalletChangedSchema, event.payload);
      if (changed.wallet?.workspaceId === customer) walletEvents.push(changed);
    },
  });
  await waitFor('50 wallet events', () => (walletEvents.length >= 50 ? true : undefined), 30_000);
  expect(new Set(walletEvents.map((event) => event.appliedUsageEventId))).toEqual(new Set(published.map((event) => event.eventId)));
  expect(walletEvents.map((event) => event.wallet?.version).sort((a, b) => Number(a! - b!))).toEqual(Array.from({ length: 50 }, (_, i) => BigInt(i + 1)));
});

test('an event delivered again is not charged twice, across a restart too', async () => {
  if (!billing) await startBilling();
  const customer = directory.add();
  const event = usageEvent(customer, 300);
  await publish(event);
  await waitForEntries(customer, 1);
  // The same usage under a new message id passes the stream's duplicate window: only billing can tell.
  expect((await publish(event, newId())).duplicate).toBe(false);
  await publish(usageEvent(customer, 1));
  await waitForEntries(customer, 2);

  await stopBilling();
  await publish(event, newId());
  await publish(usageEvent(customer, 2));
  await startBilling();
  await waitForEntries(customer, 3);
  const ledger = await ledgerOf(customer);
  expect(ledger.transactions.filter((entry) => entry.reference === event.reference)).toHaveLength(1);
  expect((await client.getBalance({}, member(customer))).wallet?.balance?.creditUnits).toBe(-303n);
});

test('an event whose first delivery failed is redelivered by the server and charged once', async () => {
  if (!billing) await startBilling();
  const customer = directory.add();
  directory.failOnce(customer);
  const event = usageEvent(customer, 40);
  await publish(event);
  await waitForEntries(customer, 1);
  expect(directory.asked.get(customer)).toBe(2);
  expect((await ledgerOf(customer)).transactions.map((entry) => entry.amount?.creditUnits)).toEqual([-40n]);
});

test('20 concurrent senders settle their holds through a pipelined relay that loses publishes and acks, and copies: each debit lands exactly once', async () => {
  if (!billing) await startBilling();
  const customer = directory.add();
  const senders = 20;
  const sendsEach = 10;
  const held = 100;
  await client.transfer({ fromWorkspaceId: directory.root, toWorkspaceId: customer, amount: { creditUnits: BigInt(senders * sendsEach * held), minuteUnits: 0n }, transferId: newId() }, telephony());

  // Telephony's side: an outbox in its own database, relayed by two replicas over connections
  // where every 7th publish never reaches the stream and every 9th is stored but its ack is lost.
  const db = openSqlite(join(dir, `telephony-${newId()}.sqlite`), [sqliteOutboxMigration]);
  const outbox = new SqliteOutbox(db);
  let publishes = 0;
  const lossy = {
    publish: async (subject: string, payload: Uint8Array, eventId: string) => {
      publishes += 1;
      const attempt = publishes;
      if (attempt % 7 === 0) throw new Error('connection lost before the publish');
      const result = await producer.publish(subject, payload, eventId);
      if (attempt % 9 === 0) throw new Error('timed out waiting for the ack');
      return result;
    },
  };
  const relays = [1, 2].map(() => new OutboxRelay({ outbox, stream: lossy, logger: silent, intervalMs: 50, maxInFlight: 16, retryBackoff: { initialMs: 10, maxMs: 40 } }));
  relays.forEach((relay) => relay.start());
  const captured = new Map<string, bigint>();
  try {
    const sender = async (index: number) => {
      for (let send = 0; send < sendsEach; send += 1) {
        const holdId = newId();
        const reference = `msg-${index}-${send}`;
        const answer = await client.authorize({
          holdId, workspaceId: customer, amount: { creditUnits: BigInt(held), minuteUnits: 0n }, expiresInSeconds: 300, kind: 'sms.outbound', reference, description: 'SMS',
        }, telephony());
        expect(answer.outcome.case).toBe('hold');
        const used = BigInt(50 + ((index * sendsEach + send) % 50));
        const event = create(UsageEventSchema, { eventId: newId(), workspaceId: customer, kind: 'sms.outbound', creditUnits: used, reference, description: 'SMS', holdId });
        db.transaction(() => outbox.add({ id: event.eventId, subject: usageSubject('telephony', 'sms'), payload: toBinary(UsageEventSchema, event) })).immediate();
        captured.set(reference, used);
        relays.forEach((relay) => relay.wake());
        // Every fifth use also arrives as a copy the stream cannot recognise (another message id).
        if (send % 5 === 0) await publish(event, newId());
      }
    };
    await Promise.all(Array.from({ length: senders }, (_, index) => sender(index)));
    await waitFor('the outbox to drain', async () => ((await outbox.pending(1)).length === 0 ? true : undefined), 60_000);
    await waitFor('every debit', async () => ((await ledgerOf(customer)).total >= senders * sendsEach + 1 ? true : undefined), 60_000);
  } finally {
    await Promise.all(relays.map((relay) => relay.stop()));
    db.close();
  }
  // Anything still on its way would show up as an extra entry.
  await new Promise((resolve) => setTimeout(resolve, 300));

  const entries = [
    ...(await client.listTransactions({ page: { limit: 200, offset: 0 } }, member(customer))).transactions,
    ...(await client.listTransactions({ page: { limit: 200, offset: 200 } }, member(customer))).transactions,
  ];
  const debits = entries.filter((entry) => entry.kind === 'sms.outbound');
  expect(debits).toHaveLength(senders * sendsEach);
  expect(new Set(debits.map((entry) => entry.reference))).toEqual(new Set(captured.keys()));
  for (const debit of debits) expect(debit.amount?.creditUnits).toBe(-captured.get(debit.reference)!);
  const spent = [...captured.values()].reduce((sum, used) => sum + used, 0n);
  const wallet = (await client.getBalance({}, member(customer))).wallet!;
  expect(wallet.balance?.creditUnits).toBe(BigInt(senders * sendsEach * held) - spent);
  // Every hold was captured: nothing is still reserved.
  expect(wallet.available?.creditUnits).toBe(wallet.balance?.creditUnits);
  expect(publishes).toBeGreaterThan(senders * sendsEach);
  // 200 holds, 230-odd publishes and 200 captures take a few seconds alone, far longer in a loaded full run.
}, 120_000);
