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
  usageStream,
  usageSubject,
  walletStream,
  type Consumption,
} from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
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
