// The billing service as main.ts starts it: startBillingService on a free port with its SQLite
// file in a temporary DATA_DIR, an in-process event stream shared with the test, and a workspace
// directory as the issuer lookup; called over real Connect HTTP/2 with signed callers. What needs
// the whole process is here: the usage consumer, the wallet-event relay, the ledger's metrics.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, fromBinary, toBinary, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Code, createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { BillingService } from '@voice/proto/voice/billing/v1/billing';
import { UsageEventSchema, WalletChangedSchema, type UsageEvent, type WalletChanged } from '@voice/proto/voice/billing/v1/events';
import { callHeaders, CallerSigner } from '@voice/runtime/caller';
import { InProcessEventStream, usageSubject, walletStream, type Consumption } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { metricsRegistry } from '@voice/runtime/metrics';
import { startBillingService, type StartedBilling } from '../src/main.js';
import { amount, billingCalls, failure, heldBy, holdRequest } from './harness.js';
import { WorkspaceDirectory, waitFor } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'billing-service-'));
const secret = randomBytes(32);
const signer = new CallerSigner(secret);
const logLines: { level: string; msg: string; [field: string]: unknown }[] = [];
const logger = createLogger({ service: 'billing-test', level: 'debug', write: (line) => logLines.push(JSON.parse(line)) });
const events = new InProcessEventStream(logger);
const directory = new WorkspaceDirectory();
const walletEvents: WalletChanged[] = [];

let billing: StartedBilling;
let sessions: Http2SessionManager;
let client: Client<typeof BillingService>;
let walletConsumption: Consumption;

beforeAll(async () => {
  billing = await startBillingService(
    { DATA_DIR: dir, VOICE_BILLING_PORT: '0', VOICE_INTERNAL_SECRET: secret.toString('hex'), LOG_LEVEL: 'silent' },
    { logger, events, issuers: directory },
  );
  sessions = new Http2SessionManager(billing.server.url);
  client = createClient(BillingService, createConnectTransport({ baseUrl: billing.server.url, httpVersion: '2', sessionManager: sessions }));
  walletConsumption = await events.consume({
    stream: walletStream.name,
    durable: `billing-test-${newId()}`,
    subjects: walletStream.subjects,
    handler: async (event) => {
      walletEvents.push(fromBinary(WalletChangedSchema, event.payload));
    },
  });
});

afterAll(async () => {
  await walletConsumption.stop();
  sessions.abort();
  await billing.close();
  await events.close();
  rmSync(dir, { recursive: true, force: true });
});

const { internal, member, balanceOf, fund, ledgerOf } = billingCalls(() => client, directory, (caller) => ({
  headers: callHeaders(signer, { ...caller, requestId: newId() }),
}));

function usageEvent(workspaceId: string, creditUnits: number, overrides: MessageInitShape<typeof UsageEventSchema> = {}): UsageEvent {
  return create(UsageEventSchema, {
    eventId: newId(),
    workspaceId,
    kind: 'sms.outbound',
    creditUnits: BigInt(creditUnits),
    reference: `msg-${newId()}`,
    description: 'SMS to +15550100',
    occurredAt: timestampFromDate(new Date()),
    ...overrides,
  });
}

/** Publishes with the usage event id as the stream's message id, as producers do, unless told otherwise. */
const publishUsage = (event: UsageEvent, streamId = event.eventId) =>
  events.publish(usageSubject('telephony', 'sms'), toBinary(UsageEventSchema, event), streamId);

/** Waits until the ledger shows the entry for `reference` (usage is applied asynchronously). */
const waitForEntry = (workspaceId: string, reference: string) =>
  waitFor(`the entry ${reference}`, async () => (await ledgerOf(workspaceId)).transactions.find((entry) => entry.reference === reference));

describe('the ledger and usage summary', () => {
  test('list a workspace newest first in offset pages', async () => {
    const customer = directory.add();
    for (let i = 1; i <= 4; i += 1) await client.transfer({ fromWorkspaceId: directory.root, toWorkspaceId: customer, amount: amount(i), transferId: newId(), reference: `r${i}` }, internal());
    const page = await client.listTransactions({ page: { limit: 2, offset: 1 } }, member(customer));
    expect(page.total).toBe(4);
    expect(page.transactions.map((entry) => entry.reference)).toEqual(['r3', 'r2']);
    expect(page.transactions[0]?.balanceAfter).toMatchObject(amount(6));
  });

  test('sum this month\'s consumption by kind and refuse an empty window', async () => {
    const customer = directory.add();
    await fund(customer, 100_000);
    const sms = usageEvent(customer, 150);
    await publishUsage(sms);
    await publishUsage(usageEvent(customer, 0, { kind: 'call.minutes', minuteUnits: 2_500n }));
    await waitFor('both usage events', async () => ((await ledgerOf(customer)).total === 3 ? true : undefined));
    const fee = { ...holdRequest(customer, 1_000), kind: 'number.monthly' };
    heldBy(await client.authorize(fee, internal()));
    await client.capture({ holdId: fee.holdId, workspaceId: customer, amount: amount(1_000) }, internal());
    const summary = await client.getUsageSummary({}, member(customer));
    const now = new Date();
    expect(Number(summary.from?.seconds) * 1000).toBe(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    expect(summary.total).toMatchObject(amount(1_150, 2_500));
    expect(summary.byKind).toEqual([
      expect.objectContaining({ kind: 'call.minutes', count: 1, amount: expect.objectContaining(amount(0, 2_500)) }),
      expect.objectContaining({ kind: 'number.monthly', count: 1, amount: expect.objectContaining(amount(1_000)) }),
      expect.objectContaining({ kind: 'sms.outbound', count: 1, amount: expect.objectContaining(amount(150)) }),
    ]);
    const past = await client.getUsageSummary({ from: timestampFromDate(new Date('2020-01-01T00:00:00Z')), to: timestampFromDate(new Date('2020-02-01T00:00:00Z')) }, member(customer));
    expect([past.total, past.byKind]).toEqual([expect.objectContaining(amount(0, 0)), []]);
    const at = timestampFromDate(new Date('2026-01-01T00:00:00Z'));
    const empty = await failure(client.getUsageSummary({ from: at, to: at }, member(customer)));
    expect([empty.code, empty.fields.map((issue) => issue.field)]).toEqual([Code.InvalidArgument, ['from']]);
  });
});

/** The billing-usage consumer's metrics so far in this process (the tests compare before and after). */
async function usageMetrics(): Promise<{ applied: number; duplicate: number; failed: number; lagCount: number; lagSum: number }> {
  const valueOf = async (metric: string, sample: string, labels: Record<string, string>) => {
    const values = (await metricsRegistry.getSingleMetric(metric)?.get())?.values ?? [];
    const found = values.find(
      (value) => ((value as { metricName?: string }).metricName ?? metric) === sample && Object.entries(labels).every(([key, wanted]) => value.labels[key] === wanted),
    );
    return found?.value ?? 0;
  };
  const outcome = (name: string) => valueOf('event_consumer_events_total', 'event_consumer_events_total', { consumer: 'billing-usage', outcome: name });
  const lag = (sample: string) => valueOf('event_consumer_lag_seconds', sample, { consumer: 'billing-usage', stream: 'USAGE' });
  return {
    applied: await outcome('applied'),
    duplicate: await outcome('duplicate'),
    failed: await outcome('failed'),
    lagCount: await lag('event_consumer_lag_seconds_count'),
    lagSum: await lag('event_consumer_lag_seconds_sum'),
  };
}

describe('usage events', () => {
  test('are charged once per event id, even published again past the stream\'s duplicate window', async () => {
    const before = await usageMetrics();
    const customer = directory.add();
    await fund(customer, 1_000);
    const event = usageEvent(customer, 300);
    await publishUsage(event);
    await waitForEntry(customer, event.reference);
    // A second copy the stream does not recognise (another message id), then a marker behind it.
    await publishUsage(event, newId());
    const marker = usageEvent(customer, 1);
    await publishUsage(marker);
    await waitForEntry(customer, marker.reference);
    const ledger = await ledgerOf(customer);
    expect(ledger.transactions.filter((entry) => entry.reference === event.reference)).toHaveLength(1);
    expect(ledger.transactions[1]).toMatchObject({ kind: 'sms.outbound', amount: amount(-300), balanceAfter: amount(700), description: 'SMS to +15550100' });
    expect((await balanceOf(customer)).balance).toMatchObject(amount(699));
    // Two applied (the event and the marker), the copy a duplicate; each applied one's lag observed.
    const after = await usageMetrics();
    expect([after.applied - before.applied, after.duplicate - before.duplicate, after.failed - before.failed]).toEqual([2, 1, 0]);
    expect(after.lagCount - before.lagCount).toBe(2);
    expect(after.lagSum - before.lagSum).toBeGreaterThanOrEqual(0);
    expect(after.lagSum - before.lagSum).toBeLessThan(10);
  });

  test('naming a hold capture it once for the event\'s amount, whatever copies come', async () => {
    const before = await usageMetrics();
    const customer = directory.add();
    await fund(customer, 1_000);
    const request = holdRequest(customer, 179);
    heldBy(await client.authorize(request, internal()));
    const event = usageEvent(customer, 179, { holdId: request.holdId, reference: request.reference, description: 'SMS to +15550100, 1 GSM-7 segment' });
    await publishUsage(event);
    await publishUsage(event, newId());
    const marker = usageEvent(customer, 1);
    await publishUsage(marker);
    await waitForEntry(customer, marker.reference);
    const entries = (await ledgerOf(customer)).transactions.filter((entry) => entry.reference === request.reference);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: 'sms.outbound', amount: amount(-179), description: 'SMS to +15550100, 1 GSM-7 segment' });
    expect(await balanceOf(customer)).toMatchObject({ balance: amount(820), available: amount(820) });
    const after = await usageMetrics();
    expect([after.applied - before.applied, after.duplicate - before.duplicate, after.failed - before.failed]).toEqual([2, 1, 0]);
  });

  test('of nothing release their hold; one whose hold expired is still charged, and one above its hold is dropped', async () => {
    const customer = directory.add();
    await fund(customer, 1_000);
    const unused = holdRequest(customer, 300);
    heldBy(await client.authorize(unused, internal()));
    await publishUsage(usageEvent(customer, 0, { holdId: unused.holdId }));
    await waitFor('the release', async () => ((await balanceOf(customer)).available?.creditUnits === 1_000n ? true : undefined));
    expect((await ledgerOf(customer)).total).toBe(1);

    const late = holdRequest(customer, 200);
    heldBy(await client.authorize(late, internal()));
    await client.release({ holdId: late.holdId, workspaceId: customer }, internal());
    const lateEvent = usageEvent(customer, 200, { holdId: late.holdId, reference: late.reference });
    await publishUsage(lateEvent);
    await waitForEntry(customer, late.reference);
    expect(logLines.some((line) => line.level === 'error' && line.hold_id === late.holdId && line.msg.includes('had expired'))).toBe(true);

    const small = holdRequest(customer, 10);
    heldBy(await client.authorize(small, internal()));
    const above = usageEvent(customer, 11, { holdId: small.holdId });
    await publishUsage(above);
    const marker = usageEvent(customer, 1);
    await publishUsage(marker);
    await waitForEntry(customer, marker.reference);
    expect(logLines.some((line) => line.level === 'error' && line.event_id === above.eventId)).toBe(true);
    expect(await balanceOf(customer)).toMatchObject({ balance: amount(799), available: amount(789) });
  });

  test('take a customer below zero: the service was already delivered', async () => {
    const customer = directory.add();
    await fund(customer, 100);
    const event = usageEvent(customer, 250);
    await publishUsage(event);
    await waitForEntry(customer, event.reference);
    expect((await balanceOf(customer)).balance).toMatchObject(amount(-150));
  });

  test('that can never apply are logged and acknowledged without effect', async () => {
    const before = await usageMetrics();
    const customer = directory.add();
    await fund(customer, 1_000);
    const undecodable = { id: newId(), payload: new Uint8Array([0xff, 0xff, 0xff]) };
    const unusable = [
      usageEvent('', 5),
      usageEvent(customer, -5),
      usageEvent(customer, 5, { minuteUnits: -1n }),
      usageEvent(customer, 5, { kind: '' }),
      usageEvent(newId(), 5),
    ].map((event) => ({ id: event.eventId, payload: toBinary(UsageEventSchema, event) }));
    const bad = [undecodable, ...unusable];
    for (const event of bad) await events.publish(usageSubject('telephony', 'sms'), event.payload, event.id);
    const marker = usageEvent(customer, 1);
    await publishUsage(marker);
    await waitForEntry(customer, marker.reference);
    expect(await balanceOf(customer)).toMatchObject({ balance: amount(999), version: 2n });
    const ids = new Set(bad.map((event) => event.id));
    const dropped = logLines.filter((line) => line.level === 'error' && ids.has(String(line.event_id)));
    expect(dropped.map((line) => line.event_id).sort()).toEqual([...ids].sort());
    // A rejected handler would have been logged by the stream before it moved on to the marker.
    expect(logLines.filter((line) => line.msg.startsWith('event handler failed'))).toEqual([]);
    // Each dropped event counts as failed; only the marker as applied.
    const after = await usageMetrics();
    expect([after.applied - before.applied, after.failed - before.failed]).toEqual([1, bad.length]);
  });
});

describe('wallet events', () => {
  test('announce every balance change on the wallet stream (holds alone move only the version), naming the usage event a change applied', async () => {
    const [customer, other] = [directory.add(), directory.add()];
    await fund(customer, 500);
    await client.transfer({ fromWorkspaceId: customer, toWorkspaceId: other, amount: amount(200), transferId: newId() }, internal());
    const hold = holdRequest(customer, 50);
    heldBy(await client.authorize(hold, internal()));
    await client.capture({ holdId: hold.holdId, workspaceId: customer, amount: amount(50) }, internal());
    const usage = usageEvent(customer, 25);
    await publishUsage(usage);
    const ofCustomer = () => walletEvents.filter((event) => event.wallet?.workspaceId === customer);
    await waitFor('four wallet events', () => (ofCustomer().length === 4 ? true : undefined));
    expect(ofCustomer().map((event) => [event.wallet?.version, event.wallet?.balance?.creditUnits, event.appliedUsageEventId])).toEqual([
      [1n, 500n, ''],
      [2n, 300n, ''],
      [4n, 250n, ''],
      [5n, 225n, usage.eventId],
    ]);
    await waitFor('the receiving wallet\'s event', () => walletEvents.find((event) => event.wallet?.workspaceId === other));
    expect(walletEvents.find((event) => event.wallet?.workspaceId === directory.root)?.wallet?.issuer).toBe(true);
  });

  test('a usage event that captures a hold is named by the change, with the ledger entry it wrote', async () => {
    const customer = directory.add();
    await fund(customer, 1_000);
    // Three minutes at 100 credit sub-units a minute, none of them included: 300 held as credits.
    const hold = { ...holdRequest(customer, 0, 3_000), creditUnitsPerMinute: 100n, kind: 'call.minutes' };
    heldBy(await client.authorize(hold, internal()));
    const usage = usageEvent(customer, 0, { holdId: hold.holdId, kind: 'call.minutes', minuteUnits: 1_500n });
    await publishUsage(usage);
    const applied = await waitFor('the capture\'s wallet event', () => walletEvents.find((event) => event.appliedUsageEventId === usage.eventId));
    expect(applied.transaction).toMatchObject({ kind: 'call.minutes', amount: { creditUnits: -150n, minuteUnits: 0n }, balanceAfter: { creditUnits: 850n } });
    expect(applied.wallet?.balance?.creditUnits).toBe(850n);
  });
});
