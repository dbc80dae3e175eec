// Tier 2: the billing service's routes over an in-memory Connect transport, with the real
// signed-caller interceptor, a real SQLite store and a workspace directory as the issuer lookup:
// wallets, transfers and holds as callers see them. (started.test.ts runs the service as main.ts
// starts it, with its usage consumer and wallet events; server.test.ts puts it on a real server.)
import { Code, ConnectError } from '@connectrpc/connect';
import { HoldStatus } from '@voice/proto/voice/billing/v1/billing';
import { newId } from '@voice/runtime/ids';
import { amount, failure, heldBy, holdRequest, setup, type BillingTier } from './harness.js';

let tier: BillingTier;
let client: BillingTier['client'];
let directory: BillingTier['directory'];
let internal: BillingTier['internal'];
let member: BillingTier['member'];
let signed: BillingTier['signed'];
let balanceOf: BillingTier['balanceOf'];
let fund: BillingTier['fund'];
let ledgerOf: BillingTier['ledgerOf'];
beforeAll(async () => {
  tier = await setup();
  ({ client, directory, internal, member, signed, balanceOf, fund, ledgerOf } = tier);
});
afterAll(() => tier.close());

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
    expect([refused.code, refused.reason]).toEqual([Code.NotFound, 'not_found']);
  });

  test('need a signed caller naming a workspace', async () => {
    expect((await failure(client.getBalance({}))).code).toBe(Code.Unauthenticated);
    expect((await failure(client.getBalance({}, internal()))).reason).toBe('unauthorized');
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
    for (const caller of [member(directory.root), signed({ type: 'user', id: 'u', name: 'u' }, directory.root)]) {
      const refused = await failure(client.transfer(request, caller));
      expect([refused.code, refused.reason]).toEqual([Code.PermissionDenied, 'forbidden']);
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
    expect(refused.fields.map((issue) => issue.field)).toContain(field);
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
    expect([short.code, short.reason, short.message]).toEqual([Code.FailedPrecondition, 'conflict', 'insufficient credits']);
    expect(short.fields.map((issue) => issue.field)).toEqual(['amount']);
    const request = { fromWorkspaceId: customer, toWorkspaceId: other, amount: amount(4_000), transferId: newId(), reference: 'reclaim' };
    const first = await client.transfer(request, internal());
    const retry = await client.transfer(request, internal());
    expect(retry.replayed).toBe(true);
    expect([retry.debit?.id, retry.credit?.id]).toEqual([first.debit?.id, first.credit?.id]);
    const reused = await failure(client.transfer({ ...request, amount: amount(4_001) }, internal()));
    expect([reused.code, reused.reason]).toEqual([Code.FailedPrecondition, 'conflict']);
    expect(reused.fields.map((issue) => issue.field)).toEqual(['transfer_id']);
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
    expect([reclaim.code, reclaim.message]).toEqual([Code.FailedPrecondition, 'insufficient credits']);
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
    expect([other.code, other.fields.map((issue) => issue.field)]).toEqual([Code.FailedPrecondition, ['hold_id']]);
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
    expect([above.code, above.fields]).toEqual([Code.FailedPrecondition, [{ field: 'amount', issue: 'is more than the hold covers' }]]);
    expect(await balanceOf(customer)).toMatchObject({ available: amount(300) });
    const key = { holdId: request.holdId, workspaceId: customer };
    expect(await client.release(key, internal())).toMatchObject({ replayed: false, hold: { status: HoldStatus.RELEASED } });
    expect(await client.release(key, internal())).toMatchObject({ replayed: true, hold: { status: HoldStatus.RELEASED } });
    const late = await failure(client.capture({ ...key, amount: amount(1) }, internal()));
    expect([late.code, late.message]).toEqual([Code.FailedPrecondition, 'the hold was released and can no longer be captured']);
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
    expect([reused.code, reused.fields.map((issue) => issue.field)]).toEqual([Code.FailedPrecondition, ['hold_id']]);
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
      expect([refused.code, refused.fields.map((issue) => issue.field)]).toEqual([Code.InvalidArgument, [field]]);
    }
    const negative = await failure(client.capture({ holdId: newId(), workspaceId: customer, amount: amount(-1) }, internal()));
    expect([negative.code, negative.fields.map((issue) => issue.field)]).toEqual([Code.InvalidArgument, ['amount']]);
    for (const unknown of [newId(), 'not-a-uuid']) {
      expect((await failure(client.authorize(holdRequest(unknown, 1), internal()))).code).toBe(Code.NotFound);
      expect((await failure(client.capture({ holdId: newId(), workspaceId: unknown, amount: amount(1) }, internal()))).code).toBe(Code.NotFound);
    }
    expect(await balanceOf(customer)).toMatchObject({ balance: amount(100), available: amount(100), version: 1n });
  });
});
