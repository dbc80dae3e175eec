// The behaviour every BillingStore must have, written once and run against each adapter.
import { newId } from '@voice/runtime/ids';
import type { Units } from '../src/domain/amounts.js';
import type { BillingStore } from '../src/store/store.js';
import { authorizeCommand, captureCommand, credits, tick, transferCommand, usageCommand } from './store-commands.js';
import { holdContract } from './store.hold-contract.js';
import { retentionContract } from './store.retention-contract.js';
import { pendingWalletEvents } from './support.js';
import type { OpenStore } from '../../runtime/test/store-contract.js';

export function billingStoreContract(open: OpenStore<BillingStore>): void {
  let store: BillingStore;
  let root: string;
  let customer: string;

  /** The WalletChanged events of one workspace still waiting in the outbox. */
  const walletEventsOf = async (workspaceId: string) =>
    (await pendingWalletEvents(store.outbox)).filter((event) => event.wallet?.workspaceId === workspaceId);

  const balanceOf = async (workspaceId: string) => (await store.getWallet(workspaceId))?.balance;

  /** Opens the customer's wallet and gives it `amount` from the issuer. */
  async function fund(workspaceId: string, amount: Units): Promise<void> {
    await store.openWallet(workspaceId, false, tick());
    expect((await store.transfer(transferCommand(root, workspaceId, amount))).kind).toBe('transferred');
  }

  beforeEach(async () => {
    store = await open();
    root = newId();
    customer = newId();
    await store.openWallet(root, true, tick());
  });
  afterEach(async () => {
    await store.close();
  });

  describe('wallets', () => {
    test('are created on first open with nothing in them, and kept as they are by later opens', async () => {
      expect(await store.getWallet(customer)).toBeUndefined();
      const at = tick();
      const opened = await store.openWallet(customer, false, at);
      expect(opened).toEqual({ workspaceId: customer, balance: credits(0, 0), held: credits(0, 0), version: 0, issuer: false, createdAt: at, updatedAt: at });
      await store.transfer(transferCommand(root, customer, credits(5)));
      const reopened = await store.openWallet(customer, true, tick());
      expect([reopened.issuer, reopened.balance, reopened.version, reopened.createdAt]).toEqual([false, credits(5), 1, at]);
      expect(await store.getWallet(customer)).toEqual(reopened);
      expect((await store.getWallet(root))?.issuer).toBe(true);
    });

    test('opening writes no ledger entry and no wallet event', async () => {
      await store.openWallet(customer, false, tick());
      expect((await store.listTransactions(customer, { limit: 50, offset: 0 })).total).toBe(0);
      expect(await walletEventsOf(customer)).toEqual([]);
    });
  });

  describe('transfers', () => {
    test('move the amount between both wallets with one signed entry each', async () => {
      await store.openWallet(customer, false, tick());
      const command = transferCommand(root, customer, credits(125_000, 3_000), { reference: 'order-7', description: 'monthly top-up' });
      const outcome = await store.transfer(command);
      expect(outcome.kind).toBe('transferred');
      if (outcome.kind !== 'transferred') return;
      expect(outcome.debit).toEqual({
        id: expect.any(String),
        workspaceId: root,
        kind: 'transfer_out',
        category: 'transfer',
        amount: credits(-125_000, -3_000),
        balanceAfter: credits(-125_000, -3_000),
        walletVersion: 1,
        reference: 'order-7',
        description: 'monthly top-up',
        createdAt: command.now,
      });
      expect(outcome.credit).toEqual({
        ...outcome.debit,
        id: expect.any(String),
        workspaceId: customer,
        kind: 'transfer_in',
        amount: credits(125_000, 3_000),
        balanceAfter: credits(125_000, 3_000),
      });
      expect(outcome.credit.id).not.toBe(outcome.debit.id);
      expect(await store.getWallet(customer)).toMatchObject({ balance: credits(125_000, 3_000), version: 1, updatedAt: command.now });
      expect((await store.listTransactions(customer, { limit: 50, offset: 0 })).entries).toEqual([outcome.credit]);
      expect((await store.listTransactions(root, { limit: 50, offset: 0 })).entries).toEqual([outcome.debit]);
    });

    test('write a WalletChanged event for each wallet, with the wallet after the change', async () => {
      await fund(customer, credits(40));
      const other = newId();
      await store.openWallet(other, false, tick());
      await store.transfer(transferCommand(customer, other, credits(15)));
      const events = await walletEventsOf(customer);
      expect(events.map((event) => [event.wallet?.balance?.creditUnits, event.wallet?.version, event.wallet?.issuer, event.appliedUsageEventId])).toEqual([
        [40n, 1n, false, ''],
        [25n, 2n, false, ''],
      ]);
      const [received] = await walletEventsOf(other);
      expect([received?.wallet?.balance?.creditUnits, received?.wallet?.version]).toEqual([15n, 1n]);
      const [issued] = await walletEventsOf(root);
      expect([issued?.wallet?.balance?.creditUnits, issued?.wallet?.issuer]).toEqual([-40n, true]);
      const ids = (await pendingWalletEvents(store.outbox)).map((event) => event.eventId);
      expect(new Set(ids).size).toBe(ids.length);
    });

    test('never take a non-issuer source below zero, and a refused transfer leaves no trace', async () => {
      await fund(customer, credits(10, 2));
      const other = newId();
      await store.openWallet(other, false, tick());
      const eventsBefore = (await pendingWalletEvents(store.outbox)).length;
      expect(await store.transfer(transferCommand(customer, other, credits(11)))).toEqual({ kind: 'insufficient_credits' });
      expect(await store.transfer(transferCommand(customer, other, credits(0, 3)))).toEqual({ kind: 'insufficient_credits' });
      expect(await store.transfer(transferCommand(customer, other, credits(10, 3)))).toEqual({ kind: 'insufficient_credits' });
      expect(await store.getWallet(customer)).toMatchObject({ balance: credits(10, 2), version: 1 });
      expect(await store.getWallet(other)).toMatchObject({ balance: credits(0, 0), version: 0 });
      expect((await store.listTransactions(customer, { limit: 50, offset: 0 })).total).toBe(1);
      expect((await pendingWalletEvents(store.outbox)).length).toBe(eventsBefore);
      expect((await store.transfer(transferCommand(customer, other, credits(10, 2)))).kind).toBe('transferred');
      expect(await balanceOf(customer)).toEqual(credits(0, 0));
    });

    test('refuse only units the transfer lowers: minutes overdrawn by usage do not block a credit transfer', async () => {
      await fund(customer, credits(10));
      await store.applyUsage(usageCommand(customer, credits(0, 500), { kind: 'call.minutes' }));
      const other = newId();
      await store.openWallet(other, false, tick());
      expect((await store.transfer(transferCommand(customer, other, credits(4)))).kind).toBe('transferred');
      expect(await balanceOf(customer)).toEqual(credits(6, -500));
    });

    test('let the issuer go as far below zero as it gives', async () => {
      await store.openWallet(customer, false, tick());
      expect((await store.transfer(transferCommand(root, customer, credits(9_000_000_000_000, 1_000_000)))).kind).toBe('transferred');
      expect(await balanceOf(root)).toEqual(credits(-9_000_000_000_000, -1_000_000));
      const hold = authorizeCommand(root, credits(1, 1));
      expect((await store.authorize(hold)).kind).toBe('authorized');
      expect((await store.capture(captureCommand(hold, credits(1, 1)))).kind).toBe('captured');
      expect(await balanceOf(root)).toEqual(credits(-9_000_000_000_001, -1_000_001));
    });

    test('need both wallets opened', async () => {
      const unopened = newId();
      expect(await store.transfer(transferCommand(root, unopened, credits(1)))).toEqual({ kind: 'wallet_missing', workspaceId: unopened });
      expect(await store.transfer(transferCommand(unopened, root, credits(1)))).toEqual({ kind: 'wallet_missing', workspaceId: unopened });
      expect((await store.getWallet(root))?.version).toBe(0);
    });

    test('answer a retry with the first outcome and refuse another request under the same id', async () => {
      await store.openWallet(customer, false, tick());
      const command = transferCommand(root, customer, credits(30));
      const first = await store.transfer(command);
      expect(first.kind).toBe('transferred');
      const retry = await store.transfer({ ...command, now: tick() });
      expect(retry).toEqual({ ...first, kind: 'replayed' });
      expect(await store.transfer({ ...command, fingerprint: 'another request', now: tick() })).toEqual({ kind: 'id_reused' });
      expect(await balanceOf(customer)).toEqual(credits(30));
      expect((await store.listTransactions(customer, { limit: 50, offset: 0 })).total).toBe(1);
      expect(await walletEventsOf(customer)).toHaveLength(1);
    });

    test('refused for the balance, leave the transfer id free for a retry that can be afforded', async () => {
      await fund(customer, credits(5));
      const other = newId();
      await store.openWallet(other, false, tick());
      const command = transferCommand(customer, other, credits(8));
      expect(await store.transfer(command)).toEqual({ kind: 'insufficient_credits' });
      await store.transfer(transferCommand(root, customer, credits(3)));
      expect((await store.transfer({ ...command, now: tick() })).kind).toBe('transferred');
      expect(await balanceOf(other)).toEqual(credits(8));
    });

    test('of 20 concurrent transfers from a wallet that can afford 5, exactly 5 succeed', async () => {
      await fund(customer, credits(50));
      const other = newId();
      await store.openWallet(other, false, tick());
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => store.transfer(transferCommand(customer, other, credits(10)))));
      expect(outcomes.filter((outcome) => outcome.kind === 'transferred')).toHaveLength(5);
      expect(outcomes.filter((outcome) => outcome.kind === 'insufficient_credits')).toHaveLength(15);
      expect(await store.getWallet(customer)).toMatchObject({ balance: credits(0), version: 6 });
      expect(await balanceOf(other)).toEqual(credits(50));
      const ledger = await store.listTransactions(customer, { limit: 50, offset: 0 });
      expect(ledger.entries.map((entry) => entry.balanceAfter.creditUnits)).toEqual([0, 10, 20, 30, 40, 50]);
    });

    test('concurrent retries of one transfer move the amount once', async () => {
      await store.openWallet(customer, false, tick());
      const command = transferCommand(root, customer, credits(7));
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => store.transfer(command)));
      expect(outcomes.filter((outcome) => outcome.kind === 'transferred')).toHaveLength(1);
      expect(outcomes.every((outcome) => outcome.kind === 'transferred' || outcome.kind === 'replayed')).toBe(true);
      expect(await balanceOf(customer)).toEqual(credits(7));
    });
  });

  holdContract(() => ({ store, root, customer, fund, walletEventsOf, balanceOf }));
  retentionContract(() => ({ store, customer, fund }));

  describe('usage', () => {
    test('is applied once per event id, with its WalletChanged naming the event', async () => {
      await fund(customer, credits(100));
      const command = usageCommand(customer, credits(30, 0));
      const applied = await store.applyUsage(command);
      expect(applied).toMatchObject({
        kind: 'applied',
        entry: { kind: 'sms.outbound', category: 'usage', amount: credits(-30), balanceAfter: credits(70), reference: 'msg-1', description: 'SMS', walletVersion: 2 },
        wallet: { workspaceId: customer, balance: credits(70), version: 2, issuer: false },
      });
      expect(await store.applyUsage({ ...command, now: tick() })).toEqual({ kind: 'already_applied' });
      expect(await store.getWallet(customer)).toMatchObject({ balance: credits(70), version: 2 });
      expect((await store.listTransactions(customer, { limit: 50, offset: 0 })).total).toBe(2);
      const events = await walletEventsOf(customer);
      expect(events.map((event) => event.appliedUsageEventId)).toEqual(['', command.eventId]);
      expect(events[1]?.wallet?.balance?.creditUnits).toBe(70n);
    });

    test('is applied even when it takes a non-issuer wallet below zero', async () => {
      await fund(customer, credits(10));
      expect((await store.applyUsage(usageCommand(customer, credits(25, 1_500), { kind: 'call.minutes' }))).kind).toBe('applied');
      expect(await balanceOf(customer)).toEqual(credits(-15, -1_500));
      // Spending stops until the wallet is topped up.
      expect(await store.authorize(authorizeCommand(customer, credits(1)))).toEqual({ kind: 'insufficient', available: credits(-15, -1_500) });
    });

    test('concurrent deliveries of one event apply it once', async () => {
      await fund(customer, credits(100));
      const command = usageCommand(customer, credits(10));
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => store.applyUsage(command)));
      expect(outcomes.filter((outcome) => outcome.kind === 'applied')).toHaveLength(1);
      expect(await balanceOf(customer)).toEqual(credits(90));
    });

    test('needs the wallet opened', async () => {
      const unopened = newId();
      expect(await store.applyUsage(usageCommand(unopened, credits(1)))).toEqual({ kind: 'wallet_missing', workspaceId: unopened });
    });
  });

  describe('the ledger', () => {
    test('lists a workspace newest first with offset pages and the total', async () => {
      await fund(customer, credits(1_000));
      for (let i = 1; i <= 6; i += 1) await store.applyUsage(usageCommand(customer, credits(i), { reference: `msg-${i}` }));
      await fund(newId(), credits(1));
      const all = await store.listTransactions(customer, { limit: 50, offset: 0 });
      expect(all.total).toBe(7);
      expect(all.entries.map((entry) => entry.reference)).toEqual(['msg-6', 'msg-5', 'msg-4', 'msg-3', 'msg-2', 'msg-1', 'ref']);
      expect(all.entries.map((entry) => entry.walletVersion)).toEqual([7, 6, 5, 4, 3, 2, 1]);
      const page = await store.listTransactions(customer, { limit: 2, offset: 3 });
      expect(page.total).toBe(7);
      expect(page.entries.map((entry) => entry.reference)).toEqual(['msg-3', 'msg-2']);
      expect((await store.listTransactions(customer, { limit: 10, offset: 10 })).entries).toEqual([]);
      expect(await store.listTransactions(newId(), { limit: 10, offset: 0 })).toEqual({ entries: [], total: 0 });
    });

    test('sums consumption by kind within [from, to): usage and captured holds, never transfers', async () => {
      await fund(customer, credits(10_000));
      const at = (iso: string) => ({ now: iso });
      await store.applyUsage(usageCommand(customer, credits(100), at('2026-04-30T23:59:59.999Z')));
      await store.applyUsage(usageCommand(customer, credits(150), at('2026-05-01T00:00:00.000Z')));
      await store.applyUsage(usageCommand(customer, credits(250, 0), at('2026-05-10T12:00:00.000Z')));
      await store.applyUsage(usageCommand(customer, credits(0, 2_500), { kind: 'call.minutes', now: '2026-05-11T08:00:00.000Z' }));
      const fee = authorizeCommand(customer, credits(900), { kind: 'number.monthly', now: '2026-05-11T23:00:00.000Z' });
      await store.authorize(fee);
      await store.capture(captureCommand(fee, credits(900), { now: '2026-05-12T00:00:00.000Z' }));
      await store.transfer(transferCommand(customer, root, credits(5), at('2026-05-13T00:00:00.000Z')));
      await store.applyUsage(usageCommand(customer, credits(1_000), at('2026-06-01T00:00:00.000Z')));
      const other = newId();
      await fund(other, credits(100));
      await store.applyUsage(usageCommand(other, credits(7), at('2026-05-05T00:00:00.000Z')));

      expect(await store.usageByKind(customer, '2026-05-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z')).toEqual([
        { kind: 'call.minutes', count: 1, consumed: credits(0, 2_500) },
        { kind: 'number.monthly', count: 1, consumed: credits(900) },
        { kind: 'sms.outbound', count: 2, consumed: credits(400) },
      ]);
      expect(await store.usageByKind(customer, '2026-04-30T23:59:59.999Z', '2026-05-01T00:00:00.000Z')).toEqual([
        { kind: 'sms.outbound', count: 1, consumed: credits(100) },
      ]);
      expect(await store.usageByKind(customer, '2026-05-13T00:00:00.000Z', '2026-05-14T00:00:00.000Z')).toEqual([]);
    });
  });
}
