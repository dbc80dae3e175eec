// The billing service as it runs: started with startBillingService on a free port with its SQLite
// file in a temporary DATA_DIR, an in-process event stream shared with the test, and a workspace
// directory as the issuer lookup; called over real Connect HTTP/2 with signed callers.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, fromBinary, toBinary, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { BillingService, HoldStatus, type Hold } from '@voice/proto/voice/billing/v1/billing';
import { UsageEventSchema, WalletChangedSchema, type UsageEvent, type WalletChanged } from '@voice/proto/voice/billing/v1/events';
import { callHeaders, CallerSigner, type Principal } from '@voice/runtime/caller';
import { errorDetailOf } from '@voice/runtime/errors';
import { InProcessEventStream, usageSubject, walletStream, type Consumption } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { metricsRegistry } from '@voice/runtime/metrics';
import { startBillingService, type StartedBilling } from '../src/main.js';
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

const as = (principal: Principal, workspaceId: string) => ({
  headers: callHeaders(signer, { workspaceId, principal, scopes: null, requestId: newId() }),
});
const internal = (workspaceId = '') => as({ type: 'internal', id: 'telephony', name: 'telephony' }, workspaceId);
const member = (workspaceId: string) => as({ type: 'service_account', id: 'key-1', name: 'key' }, workspaceId);

const amount = (creditUnits: number, minuteUnits = 0) => ({ creditUnits: BigInt(creditUnits), minuteUnits: BigInt(minuteUnits) });

async function failure(call: Promise<unknown>): Promise<ConnectError> {
  try {
    await call;
  } catch (error) {
    return ConnectError.from(error);
  }
  throw new Error('the call succeeded');
}

const balanceOf = async (workspaceId: string) => (await client.getBalance({}, member(workspaceId))).wallet!;

async function fund(workspaceId: string, creditUnits: number, minuteUnits = 0): Promise<void> {
  await client.transfer({ fromWorkspaceId: directory.root, toWorkspaceId: workspaceId, amount: amount(creditUnits, minuteUnits), transferId: newId() }, internal());
}

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

const ledgerOf = async (workspaceId: string) => client.listTransactions({ page: { limit: 200, offset: 0 } }, member(workspaceId));

/** Waits until the ledger shows the entry for `reference` (usage is applied asynchronously). */
const waitForEntry = (workspaceId: string, reference: string) =>
  waitFor(`the entry ${reference}`, async () => (await ledgerOf(workspaceId)).transactions.find((entry) => entry.reference === reference));

describe('wallets', () => {
  test('are created on first use, empty, and the root platform workspace is the issuer', async () => {
    const workspace = directory.add();
    const wallet = await balanceOf(workspace);
    expect(wallet).toMatchObject({ workspaceId: workspace, balance: amount(0, 0), version: 0n, issuer: false });
    expect(await balanceOf(directory.root)).toMatchObject({ issuer: true });
  });

  test('ask the issuer lookup once per wallet, even for concurrent first uses', async () => {
    const workspace = directory.add();
    await Promise.all(Array.from({ length: 5 }, () => balanceOf(workspace)));
    await balanceOf(workspace);
    expect(directory.asked.get(workspace)).toBe(1);
  });

  test('of a workspace the directory does not know are not found', async () => {
    const refused = await failure(client.getBalance({}, member(newId())));
    expect([refused.code, errorDetailOf(refused).reason]).toEqual([Code.NotFound, 'not_found']);
  });

  test('need a signed caller naming a workspace', async () => {
    expect((await failure(client.getBalance({}))).code).toBe(Code.Unauthenticated);
    expect(errorDetailOf(await failure(client.getBalance({}, internal()))).reason).toBe('unauthorized');
  });
});

describe('transfers', () => {
  test('move credits between two wallets and answer both ledger entries', async () => {
    const customer = directory.add();
    const moved = await client.transfer(
      { fromWorkspaceId: directory.root, toWorkspaceId: customer, amount: amount(125_000, 2_000), transferId: newId(), reference: 'order-1', description: 'top-up' },
      internal(),
    );
    expect(moved.replayed).toBe(false);
    expect(moved.debit).toMatchObject({ kind: 'transfer_out', amount: amount(-125_000, -2_000), reference: 'order-1', description: 'top-up' });
    expect(moved.credit).toMatchObject({ kind: 'transfer_in', amount: amount(125_000, 2_000), balanceAfter: amount(125_000, 2_000) });
    expect(await balanceOf(customer)).toMatchObject({ balance: amount(125_000, 2_000), version: 1n });
  });

  test('are for platform services only', async () => {
    const customer = directory.add();
    const request = { fromWorkspaceId: directory.root, toWorkspaceId: customer, amount: amount(1), transferId: newId() };
    for (const caller of [member(directory.root), as({ type: 'user', id: 'u', name: 'u' }, directory.root)]) {
      const refused = await failure(client.transfer(request, caller));
      expect([refused.code, errorDetailOf(refused).reason]).toEqual([Code.PermissionDenied, 'forbidden']);
    }
    expect((await balanceOf(customer)).balance).toMatchObject(amount(0));
  });

  test.each([
    ['zero', () => ({ amount: amount(0, 0) }), 'amount'],
    ['negative credits', () => ({ amount: amount(-5) }), 'amount'],
    ['negative minutes', () => ({ amount: amount(5, -1) }), 'amount'],
    ['no amount', () => ({ amount: undefined }), 'amount'],
    ['no transfer id', () => ({ transferId: '' }), 'transfer_id'],
    ['the same wallet on both sides', (customer: string) => ({ toWorkspaceId: customer }), 'to_workspace_id'],
    ['an overlong reference', () => ({ reference: 'r'.repeat(256) }), 'reference'],
  ])('with %s are invalid', async (_name, change, field) => {
    const customer = directory.add();
    const request = { fromWorkspaceId: customer, toWorkspaceId: directory.root, amount: amount(1), transferId: newId(), ...change(customer) };
    const refused = await failure(client.transfer(request, internal()));
    expect(refused.code).toBe(Code.InvalidArgument);
    expect(errorDetailOf(refused).fields.map((issue) => issue.field)).toContain(field);
  });

  test('to or from an unknown workspace are not found', async () => {
    for (const unknown of [newId(), 'not-a-uuid']) {
      const to = await failure(client.transfer({ fromWorkspaceId: directory.root, toWorkspaceId: unknown, amount: amount(1), transferId: newId() }, internal()));
      const from = await failure(client.transfer({ fromWorkspaceId: unknown, toWorkspaceId: directory.root, amount: amount(1), transferId: newId() }, internal()));
      expect([to.code, from.code]).toEqual([Code.NotFound, Code.NotFound]);
    }
  });

  test('never take a customer below zero, and a retry answers the first outcome', async () => {
    const [customer, other] = [directory.add(), directory.add()];
    await fund(customer, 10_000);
    const short = await failure(client.transfer({ fromWorkspaceId: customer, toWorkspaceId: other, amount: amount(10_001), transferId: newId() }, internal()));
    expect([short.code, errorDetailOf(short).reason, short.rawMessage]).toEqual([Code.FailedPrecondition, 'conflict', 'insufficient credits']);
    expect(errorDetailOf(short).fields.map((issue) => issue.field)).toEqual(['amount']);
    const request = { fromWorkspaceId: customer, toWorkspaceId: other, amount: amount(4_000), transferId: newId(), reference: 'reclaim' };
    const first = await client.transfer(request, internal());
    const retry = await client.transfer(request, internal());
    expect(retry.replayed).toBe(true);
    expect([retry.debit?.id, retry.credit?.id]).toEqual([first.debit?.id, first.credit?.id]);
    const reused = await failure(client.transfer({ ...request, amount: amount(4_001) }, internal()));
    expect([reused.code, errorDetailOf(reused).reason]).toEqual([Code.FailedPrecondition, 'conflict']);
    expect(errorDetailOf(reused).fields.map((issue) => issue.field)).toEqual(['transfer_id']);
    expect((await balanceOf(customer)).balance).toMatchObject(amount(6_000));
    expect((await balanceOf(other)).balance).toMatchObject(amount(4_000));
  });

  test('of 20 concurrent calls from a wallet that can afford 5, exactly 5 succeed', async () => {
    const [customer, other] = [directory.add(), directory.add()];
    await fund(customer, 50);
    const calls = Array.from({ length: 20 }, () =>
      client.transfer({ fromWorkspaceId: customer, toWorkspaceId: other, amount: amount(10), transferId: newId() }, internal()).then(
        () => 'moved',
        (error: unknown) => ConnectError.from(error).rawMessage,
      ),
    );
    const outcomes = await Promise.all(calls);
    expect(outcomes.filter((outcome) => outcome === 'moved')).toHaveLength(5);
    expect(outcomes.filter((outcome) => outcome === 'insufficient credits')).toHaveLength(15);
    expect(await balanceOf(customer)).toMatchObject({ balance: amount(0), version: 6n });
    expect((await balanceOf(other)).balance).toMatchObject(amount(50));
  });
});

/** An Authorize request for a hold of `creditUnits` (and minutes) in the workspace, under a new id. */
const holdRequest = (workspaceId: string, creditUnits: number, minuteUnits = 0) => ({
  holdId: newId(),
  workspaceId,
  amount: amount(creditUnits, minuteUnits),
  expiresInSeconds: 300,
  kind: 'sms.outbound',
  reference: `msg-${newId()}`,
  description: 'SMS to +15550100',
});

/** The hold an Authorize answered, or a failure naming the refusal. */
function heldBy(answer: { outcome: { case: string | undefined; value?: unknown } }) {
  if (answer.outcome.case !== 'hold') throw new Error(`not authorized: ${answer.outcome.case}`);
  return answer.outcome.value as Hold;
}

describe('holds', () => {
  test('reserve part of the available balance, which GetBalance shows beside the balance, and a refusal says what is available', async () => {
    const customer = directory.add();
    await fund(customer, 1_000, 100);
    const request = holdRequest(customer, 600, 40);
    const answer = await client.authorize(request, internal());
    expect(answer.replayed).toBe(false);
    expect(heldBy(answer)).toMatchObject({ holdId: request.holdId, workspaceId: customer, status: HoldStatus.OPEN, held: amount(600, 40), kind: 'sms.outbound' });
    const hold = heldBy(answer);
    expect(Number(hold.expiresAt!.seconds - hold.createdAt!.seconds)).toBe(300);
    expect(await balanceOf(customer)).toMatchObject({ balance: amount(1_000, 100), available: amount(400, 60), version: 2n });
    const refused = await client.authorize(holdRequest(customer, 401), internal());
    expect(refused).toMatchObject({ replayed: false, outcome: { case: 'refused', value: { available: amount(400, 60) } } });
    // A reclaim (a transfer out) sees the available balance too.
    const reclaim = await failure(client.transfer({ fromWorkspaceId: customer, toWorkspaceId: directory.root, amount: amount(401), transferId: newId() }, internal()));
    expect([reclaim.code, reclaim.rawMessage]).toEqual([Code.FailedPrecondition, 'insufficient credits']);
    expect((await ledgerOf(customer)).total).toBe(1);
  });

  test('are captured once into one ledger debit of the final amount; the rest goes back', async () => {
    const customer = directory.add();
    await fund(customer, 1_000);
    const request = holdRequest(customer, 300);
    heldBy(await client.authorize(request, internal()));
    const capture = { holdId: request.holdId, workspaceId: customer, amount: amount(179) };
    const first = await client.capture(capture, internal());
    expect(first).toMatchObject({
      replayed: false,
      hold: { status: HoldStatus.CAPTURED, captured: amount(179), held: amount(300) },
      transaction: { kind: 'sms.outbound', amount: amount(-179), balanceAfter: amount(821), reference: request.reference, description: 'SMS to +15550100' },
    });
    const replay = await client.capture(capture, internal());
    expect(replay).toMatchObject({ replayed: true, transaction: { id: first.transaction!.id } });
    const other = await failure(client.capture({ ...capture, amount: amount(180) }, internal()));
    expect([other.code, errorDetailOf(other).fields.map((issue) => issue.field)]).toEqual([Code.FailedPrecondition, ['hold_id']]);
    expect(await client.authorize(request, internal())).toMatchObject({ replayed: true, outcome: { case: 'hold', value: { status: HoldStatus.CAPTURED } } });
    expect(await balanceOf(customer)).toMatchObject({ balance: amount(821), available: amount(821) });
    expect((await ledgerOf(customer)).total).toBe(2);
  });

  test('refuse a capture above the hold and leave it open; a release gives it back, once', async () => {
    const customer = directory.add();
    await fund(customer, 500);
    const request = holdRequest(customer, 200);
    heldBy(await client.authorize(request, internal()));
    const above = await failure(client.capture({ holdId: request.holdId, workspaceId: customer, amount: amount(201) }, internal()));
    expect([above.code, errorDetailOf(above).fields]).toEqual([Code.FailedPrecondition, [{ field: 'amount', issue: 'is more than the hold covers' }]]);
    expect(await balanceOf(customer)).toMatchObject({ available: amount(300) });
    const key = { holdId: request.holdId, workspaceId: customer };
    expect(await client.release(key, internal())).toMatchObject({ replayed: false, hold: { status: HoldStatus.RELEASED } });
    expect(await client.release(key, internal())).toMatchObject({ replayed: true, hold: { status: HoldStatus.RELEASED } });
    const late = await failure(client.capture({ ...key, amount: amount(1) }, internal()));
    expect([late.code, late.rawMessage]).toEqual([Code.FailedPrecondition, 'the hold was released and can no longer be captured']);
    expect(await balanceOf(customer)).toMatchObject({ balance: amount(500), available: amount(500) });
    expect((await failure(client.release({ holdId: newId(), workspaceId: customer }, internal()))).code).toBe(Code.NotFound);
  });

  test('of a hold id reused for another request are refused; replays change nothing', async () => {
    const customer = directory.add();
    await fund(customer, 500);
    const request = holdRequest(customer, 100);
    const first = heldBy(await client.authorize(request, internal()));
    const again = await client.authorize(request, internal());
    expect(again.replayed).toBe(true);
    expect(heldBy(again)).toEqual(first);
    const reused = await failure(client.authorize({ ...request, amount: amount(101) }, internal()));
    expect([reused.code, errorDetailOf(reused).fields.map((issue) => issue.field)]).toEqual([Code.FailedPrecondition, ['hold_id']]);
    expect(await balanceOf(customer)).toMatchObject({ balance: amount(500), available: amount(400), version: 2n });
  });

  test('pay minutes from included minutes first, then credits at the hold\'s rate', async () => {
    const customer = directory.add();
    await fund(customer, 10_000, 2_000);
    const request = { ...holdRequest(customer, 0, 5_000), creditUnitsPerMinute: 1_500n, kind: 'call.minutes' };
    expect(heldBy(await client.authorize(request, internal()))).toMatchObject({ held: amount(4_500, 2_000), creditUnitsPerMinute: 1_500n });
    const captured = await client.capture({ holdId: request.holdId, workspaceId: customer, amount: amount(0, 3_500), description: 'call, 3.5 minutes' }, internal());
    expect(captured.transaction).toMatchObject({ kind: 'call.minutes', amount: amount(-2_250, -2_000), description: 'call, 3.5 minutes' });
    expect(await balanceOf(customer)).toMatchObject({ balance: amount(7_750, 0), available: amount(7_750, 0) });
  });

  test('are for platform services only, and refuse bad requests naming the field', async () => {
    const customer = directory.add();
    await fund(customer, 100);
    const denied = await failure(client.authorize(holdRequest(customer, 1), member(customer)));
    expect(denied.code).toBe(Code.PermissionDenied);
    expect((await failure(client.capture({ holdId: newId(), workspaceId: customer, amount: amount(1) }, member(customer)))).code).toBe(Code.PermissionDenied);
    expect((await failure(client.release({ holdId: newId(), workspaceId: customer }, member(customer)))).code).toBe(Code.PermissionDenied);
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: amount(0) }, 'amount'],
      [{ amount: amount(-1) }, 'amount'],
      [{ holdId: '' }, 'hold_id'],
      [{ expiresInSeconds: 0 }, 'expires_in_seconds'],
      [{ expiresInSeconds: 7 * 24 * 3600 + 1 }, 'expires_in_seconds'],
      [{ kind: '' }, 'kind'],
      [{ kind: 'transfer_in' }, 'kind'],
      [{ kind: 'SMS' }, 'kind'],
      [{ creditUnitsPerMinute: -1n }, 'credit_units_per_minute'],
      [{ description: 'd'.repeat(1001) }, 'description'],
    ];
    for (const [change, field] of cases) {
      const refused = await failure(client.authorize({ ...holdRequest(customer, 1), ...change }, internal()));
      expect([refused.code, errorDetailOf(refused).fields.map((issue) => issue.field)]).toEqual([Code.InvalidArgument, [field]]);
    }
    const negative = await failure(client.capture({ holdId: newId(), workspaceId: customer, amount: amount(-1) }, internal()));
    expect([negative.code, errorDetailOf(negative).fields.map((issue) => issue.field)]).toEqual([Code.InvalidArgument, ['amount']]);
    for (const unknown of [newId(), 'not-a-uuid']) {
      expect((await failure(client.authorize(holdRequest(unknown, 1), internal()))).code).toBe(Code.NotFound);
      expect((await failure(client.capture({ holdId: newId(), workspaceId: unknown, amount: amount(1) }, internal()))).code).toBe(Code.NotFound);
    }
    expect(await balanceOf(customer)).toMatchObject({ balance: amount(100), available: amount(100), version: 1n });
  });
});

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
    expect([empty.code, errorDetailOf(empty).fields.map((issue) => issue.field)]).toEqual([Code.InvalidArgument, ['from']]);
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
});
