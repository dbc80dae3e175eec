// The holds part of the BillingStore contract (run by store.contract.ts against each adapter):
// reservations against the available balance, captures, releases, expiry, replays, minutes
// before credits, and concurrency against one wallet.
import { newId } from '@voice/runtime/ids';
import type { Units } from '../src/domain/amounts.js';
import type { BillingStore, HoldRecord } from '../src/store/store.js';
import { authorizeCommand, captureCommand, credits, tick, transferCommand } from './store-commands.js';

export interface HoldContractContext {
  store: BillingStore;
  root: string;
  customer: string;
  fund(workspaceId: string, amount: Units): Promise<void>;
  walletEventsOf(workspaceId: string): Promise<unknown[]>;
  balanceOf(workspaceId: string): Promise<Units | undefined>;
}

const page = { limit: 200, offset: 0 };
const later = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();

/** `context` is read inside each test: the suite around it opens a fresh store before each. */
export function holdContract(context: () => HoldContractContext): void {
  const walletOf = async (workspaceId: string) => (await context().store.getWallet(workspaceId))!;
  const entriesOf = async (workspaceId: string) => (await context().store.listTransactions(workspaceId, page)).entries;

  async function authorized(workspaceId: string, amount: Units, overrides: Parameters<typeof authorizeCommand>[2] = {}): Promise<HoldRecord> {
    const outcome = await context().store.authorize(authorizeCommand(workspaceId, amount, overrides));
    if (outcome.kind !== 'authorized') throw new Error(`not authorized: ${outcome.kind}`);
    return outcome.hold;
  }

  describe('holds', () => {
    test('reserve against the available balance: the balance stays, the wallet moves on, no entry and no wallet event', async () => {
      const { store, customer, fund, walletEventsOf } = context();
      await fund(customer, credits(100, 2_000));
      const command = authorizeCommand(customer, credits(30, 500), { kind: 'number.monthly', reference: 'pn-1', description: 'first month', expiresInSeconds: 90 });
      const outcome = await store.authorize(command);
      expect(outcome).toEqual({
        kind: 'authorized',
        hold: {
          workspaceId: customer,
          holdId: command.holdId,
          status: 'open',
          held: credits(30, 500),
          captured: credits(0, 0),
          creditUnitsPerMinute: 0,
          kind: 'number.monthly',
          reference: 'pn-1',
          description: 'first month',
          fingerprint: command.fingerprint,
          captureFingerprint: null,
          entryId: null,
          expiresAt: later(command.now, 90),
          createdAt: command.now,
          settledAt: null,
        },
      });
      expect(await walletOf(customer)).toMatchObject({ balance: credits(100, 2_000), held: credits(30, 500), version: 2, updatedAt: command.now });
      expect(await store.getHold(customer, command.holdId)).toEqual(outcome.kind === 'authorized' && outcome.hold);
      expect(await store.getHold(newId(), command.holdId)).toBeUndefined();
      expect(await entriesOf(customer)).toHaveLength(1);
      expect(await walletEventsOf(customer)).toHaveLength(1);
    });

    test('are refused beyond the available balance, other holds counted, and a refusal leaves no trace', async () => {
      const { store, root, customer, fund } = context();
      await fund(customer, credits(10, 1_000));
      await authorized(customer, credits(6));
      const refused = authorizeCommand(customer, credits(5));
      expect(await store.authorize(refused)).toEqual({ kind: 'insufficient', available: credits(4, 1_000) });
      expect(await store.authorize(authorizeCommand(customer, credits(0, 1_001)))).toEqual({ kind: 'insufficient', available: credits(4, 1_000) });
      expect(await store.getHold(customer, refused.holdId)).toBeUndefined();
      expect(await walletOf(customer)).toMatchObject({ held: credits(6), version: 2 });
      // The id is free: after a top-up the same hold goes through.
      await store.transfer(transferCommand(root, customer, credits(1)));
      expect((await store.authorize({ ...refused, now: tick() })).kind).toBe('authorized');
      expect(await walletOf(customer)).toMatchObject({ balance: credits(11, 1_000), held: credits(11) });
    });

    test('count against transfers out: a reclaim may take only what no hold reserves', async () => {
      const { store, root, customer, fund } = context();
      await fund(customer, credits(10));
      await authorized(customer, credits(8));
      expect(await store.transfer(transferCommand(customer, root, credits(3)))).toEqual({ kind: 'insufficient_credits' });
      expect((await store.transfer(transferCommand(customer, root, credits(2)))).kind).toBe('transferred');
      expect(await walletOf(customer)).toMatchObject({ balance: credits(8), held: credits(8) });
      expect(await store.authorize(authorizeCommand(customer, credits(1)))).toMatchObject({ kind: 'insufficient', available: credits(0) });
    });

    test('answer a retry with the hold as it is now, and refuse another request under the same id', async () => {
      const { store, customer, fund } = context();
      await fund(customer, credits(50));
      const command = authorizeCommand(customer, credits(20));
      const first = await store.authorize(command);
      expect(await store.authorize({ ...command, now: tick() })).toEqual({ ...first, kind: 'replayed' });
      expect(await store.authorize({ ...command, fingerprint: 'another request', now: tick() })).toEqual({ kind: 'id_reused' });
      await store.capture(captureCommand(command, credits(15)));
      const replay = await store.authorize({ ...command, now: tick() });
      expect(replay).toMatchObject({ kind: 'replayed', hold: { status: 'captured', captured: credits(15) } });
      expect(await walletOf(customer)).toMatchObject({ balance: credits(35), held: credits(0) });
      expect(await entriesOf(customer)).toHaveLength(2);
    });

    test('are keyed by workspace and id: two workspaces may use the same hold id', async () => {
      const { store, customer, fund } = context();
      const other = newId();
      await fund(customer, credits(5));
      await fund(other, credits(5));
      const holdId = newId();
      expect((await store.authorize(authorizeCommand(customer, credits(1), { holdId }))).kind).toBe('authorized');
      expect((await store.authorize(authorizeCommand(other, credits(2), { holdId }))).kind).toBe('authorized');
      expect((await store.getHold(other, holdId))?.held).toEqual(credits(2));
    });

    test('need the wallet opened, and the issuer holds without a bound', async () => {
      const { store, root } = context();
      const unopened = newId();
      expect(await store.authorize(authorizeCommand(unopened, credits(1)))).toEqual({ kind: 'wallet_missing', workspaceId: unopened });
      expect((await store.authorize(authorizeCommand(root, credits(5_000_000, 9_000)))).kind).toBe('authorized');
    });
  });

  describe('captures', () => {
    test('debit the final amount once as usage of the hold\'s kind, and give the rest back', async () => {
      const { store, customer, fund, walletEventsOf } = context();
      await fund(customer, credits(100));
      const hold = await authorized(customer, credits(40), { kind: 'number.monthly', reference: 'pn-7', description: 'fee' });
      const command = captureCommand(hold, credits(25), { description: 'fee for March' });
      const outcome = await store.capture(command);
      expect(outcome).toEqual({
        kind: 'captured',
        hold: { ...hold, status: 'captured', captured: credits(25), captureFingerprint: command.fingerprint, entryId: expect.any(String), settledAt: command.now },
        entry: {
          id: expect.any(String),
          workspaceId: customer,
          kind: 'number.monthly',
          category: 'usage',
          amount: credits(-25),
          balanceAfter: credits(75),
          walletVersion: 3,
          reference: 'pn-7',
          description: 'fee for March',
          createdAt: command.now,
        },
      });
      if (outcome.kind !== 'captured') return;
      expect(outcome.hold.entryId).toBe(outcome.entry!.id);
      expect(await walletOf(customer)).toMatchObject({ balance: credits(75), held: credits(0), version: 3 });
      expect(await entriesOf(customer)).toEqual([outcome.entry, expect.objectContaining({ kind: 'transfer_in' })]);
      expect(await walletEventsOf(customer)).toHaveLength(2);
      // A capture without a description keeps the hold's.
      const other = await authorized(customer, credits(5), { description: 'SMS to +44' });
      expect(await store.capture(captureCommand(other, credits(5)))).toMatchObject({ entry: { description: 'SMS to +44' } });
    });

    test('are idempotent: the same capture replays with its entry, another is refused, nothing moves twice', async () => {
      const { store, customer, fund } = context();
      await fund(customer, credits(100));
      const hold = await authorized(customer, credits(40));
      const command = captureCommand(hold, credits(25));
      const first = await store.capture(command);
      expect(await store.capture({ ...command, now: tick() })).toEqual({ ...first, kind: 'replayed' });
      expect(await store.capture(captureCommand(hold, credits(30)))).toMatchObject({ kind: 'already_captured', hold: { captured: credits(25) } });
      expect(await walletOf(customer)).toMatchObject({ balance: credits(75), held: credits(0) });
      expect(await entriesOf(customer)).toHaveLength(2);
    });

    test('above the hold are refused and leave it open; a capture of nothing releases it without an entry', async () => {
      const { store, customer, fund } = context();
      await fund(customer, credits(100, 1_000));
      const hold = await authorized(customer, credits(40, 500));
      expect(await store.capture(captureCommand(hold, credits(41)))).toMatchObject({ kind: 'exceeds_hold', hold: { status: 'open' } });
      expect(await store.capture(captureCommand(hold, credits(0, 501)))).toMatchObject({ kind: 'exceeds_hold' });
      expect(await walletOf(customer)).toMatchObject({ balance: credits(100, 1_000), held: credits(40, 500) });
      const nothing = captureCommand(hold, credits(0));
      const outcome = await store.capture(nothing);
      expect(outcome).toEqual({ kind: 'captured', hold: expect.objectContaining({ status: 'captured', captured: credits(0), entryId: null }), entry: undefined });
      expect(await store.capture({ ...nothing, now: tick() })).toEqual({ kind: 'replayed', hold: expect.objectContaining({ entryId: null }) });
      expect(await walletOf(customer)).toMatchObject({ balance: credits(100, 1_000), held: credits(0) });
      expect(await entriesOf(customer)).toHaveLength(1);
    });

    test('of an unknown hold find nothing; of a released one are refused, or charged as delivered when asked', async () => {
      const { store, customer, fund } = context();
      await fund(customer, credits(10));
      expect(await store.capture(captureCommand({ workspaceId: customer, holdId: newId() }, credits(1)))).toEqual({ kind: 'hold_missing' });
      const hold = await authorized(customer, credits(8));
      expect((await store.release({ ...hold, now: tick() })).kind).toBe('released');
      expect(await store.capture(captureCommand(hold, credits(8)))).toMatchObject({ kind: 'not_open', hold: { status: 'released' } });
      // Another use took the balance meanwhile: the late capture is a delivered service and goes below zero.
      await authorized(customer, credits(5));
      const late = await store.capture(captureCommand(hold, credits(8), { afterSettled: 'charge' }));
      expect(late).toMatchObject({ kind: 'captured', afterSettled: true, hold: { status: 'captured', captured: credits(8) }, entry: { amount: credits(-8) } });
      expect(await walletOf(customer)).toMatchObject({ balance: credits(2), held: credits(5) });
      expect(await store.capture(captureCommand(hold, credits(8), { afterSettled: 'charge' }))).toMatchObject({ kind: 'replayed' });
    });

    test('of a minutes hold take included minutes first, then credits at the rate, rounded up', async () => {
      const { store, customer, fund } = context();
      await fund(customer, credits(1_000, 5_000));
      // 8 minutes at 100 sub-units a minute: 5 included minutes, 3 minutes as 300 credit sub-units.
      const hold = await authorized(customer, credits(0, 8_000), { creditUnitsPerMinute: 100, kind: 'call.minutes' });
      expect(hold).toMatchObject({ held: credits(300, 5_000), creditUnitsPerMinute: 100 });
      expect(await walletOf(customer)).toMatchObject({ held: credits(300, 5_000) });
      expect(await store.authorize(authorizeCommand(customer, credits(0, 1)))).toMatchObject({ kind: 'insufficient', available: credits(700, 0) });
      // 6 minutes and 1 second: all 5 minutes, then 1 017 thousandths of a minute at 100 = 101.7, rounded up.
      expect(await store.capture(captureCommand(hold, credits(0, 6_017)))).toMatchObject({ entry: { amount: credits(-102, -5_000) } });
      expect(await walletOf(customer)).toMatchObject({ balance: credits(898, 0), held: credits(0, 0) });
    });

    test('of a minutes hold beyond its credits, or of minutes a hold without a rate does not hold, are refused', async () => {
      const { store, customer, fund } = context();
      await fund(customer, credits(250, 1_000));
      const metered = await authorized(customer, credits(0, 3_000), { creditUnitsPerMinute: 100 });
      expect(metered.held).toEqual(credits(200, 1_000));
      expect(await store.capture(captureCommand(metered, credits(0, 3_001)))).toMatchObject({ kind: 'exceeds_hold' });
      expect(await store.capture(captureCommand(metered, credits(1, 3_000)))).toMatchObject({ kind: 'exceeds_hold' });
      // Without included minutes left, the whole duration is held in credits.
      expect(await store.authorize(authorizeCommand(customer, credits(0, 1_000), { creditUnitsPerMinute: 60 }))).toMatchObject({ kind: 'insufficient', available: credits(50, 0) });
      const fixed = await authorized(customer, credits(10));
      expect(await store.capture(captureCommand(fixed, credits(0, 1)))).toMatchObject({ kind: 'exceeds_hold' });
    });
  });

  describe('releases and expiry', () => {
    test('give the reservation back once; a captured hold cannot be released', async () => {
      const { store, customer, fund } = context();
      await fund(customer, credits(20));
      const hold = await authorized(customer, credits(15));
      const at = tick();
      const released = await store.release({ ...hold, now: at });
      expect(released).toEqual({ kind: 'released', hold: { ...hold, status: 'released', settledAt: at } });
      expect(await store.release({ ...hold, now: tick() })).toEqual({ kind: 'replayed', hold: { ...hold, status: 'released', settledAt: at } });
      expect(await walletOf(customer)).toMatchObject({ balance: credits(20), held: credits(0) });
      const captured = await authorized(customer, credits(5));
      await store.capture(captureCommand(captured, credits(5)));
      expect(await store.release({ ...captured, now: tick() })).toMatchObject({ kind: 'captured' });
      expect(await store.release({ workspaceId: customer, holdId: newId(), now: tick() })).toEqual({ kind: 'hold_missing' });
      expect(await entriesOf(customer)).toHaveLength(2);
    });

    test('expired holds are listed soonest first, and released as expired only once expired', async () => {
      const { store, customer, fund } = context();
      await fund(customer, credits(100));
      const soon = await authorized(customer, credits(10), { expiresInSeconds: 10 });
      const sooner = await authorized(customer, credits(20), { expiresInSeconds: 5 });
      const settled = await authorized(customer, credits(30), { expiresInSeconds: 5 });
      await store.release({ ...settled, now: tick() });
      const far = await authorized(customer, credits(5), { expiresInSeconds: 3_600 });
      const keys = (hold: HoldRecord) => ({ workspaceId: hold.workspaceId, holdId: hold.holdId });
      // The store is shared with other tests' holds (and their clock): look at this wallet's only.
      const expiredHere = async (now: string, limit = 100) => (await store.expiredHolds(now, limit)).filter((key) => key.workspaceId === customer);
      expect(await expiredHere(sooner.expiresAt)).toEqual([keys(sooner)]);
      const afterBoth = later(soon.expiresAt, 1);
      expect(await expiredHere(afterBoth)).toEqual([keys(sooner), keys(soon)]);
      // Soonest expired first: a limit keeps the oldest.
      const all = await store.expiredHolds(afterBoth, 10_000);
      expect(await store.expiredHolds(afterBoth, 1)).toEqual(all.slice(0, 1));

      expect(await store.release({ ...far, now: afterBoth, expiredOnly: true })).toMatchObject({ kind: 'not_expired', hold: { status: 'open' } });
      expect(await store.release({ ...soon, now: afterBoth, expiredOnly: true })).toMatchObject({ kind: 'released', hold: { status: 'expired', settledAt: afterBoth } });
      expect(await store.release({ ...soon, now: afterBoth, expiredOnly: true })).toMatchObject({ kind: 'replayed', hold: { status: 'expired' } });
      expect(await expiredHere(afterBoth)).toEqual([keys(sooner)]);
      // An open hold past its expiry can still be captured until it is released.
      expect(await store.capture(captureCommand(sooner, credits(20), { now: afterBoth }))).toMatchObject({ kind: 'captured' });
      expect(await expiredHere(afterBoth)).toEqual([]);
      expect(await walletOf(customer)).toMatchObject({ balance: credits(80), held: credits(5) });
    });
  });

  describe('concurrency on one wallet', () => {
    test('of 20 concurrent holds a wallet can cover 5 of, exactly 5 are authorized', async () => {
      const { store, customer, fund } = context();
      await fund(customer, credits(50));
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => store.authorize(authorizeCommand(customer, credits(10)))));
      expect(outcomes.filter((outcome) => outcome.kind === 'authorized')).toHaveLength(5);
      expect(outcomes.filter((outcome) => outcome.kind === 'insufficient')).toHaveLength(15);
      expect(await walletOf(customer)).toMatchObject({ balance: credits(50), held: credits(50), version: 6 });
    });

    test('concurrent retries of one hold and of its capture reserve and debit once', async () => {
      const { store, customer, fund } = context();
      await fund(customer, credits(50));
      const command = authorizeCommand(customer, credits(10));
      const authorizations = await Promise.all(Array.from({ length: 8 }, () => store.authorize(command)));
      expect(authorizations.filter((outcome) => outcome.kind === 'authorized')).toHaveLength(1);
      expect(authorizations.every((outcome) => outcome.kind === 'authorized' || outcome.kind === 'replayed')).toBe(true);
      const capture = captureCommand(command, credits(7));
      const captures = await Promise.all(Array.from({ length: 8 }, () => store.capture(capture)));
      expect(captures.filter((outcome) => outcome.kind === 'captured')).toHaveLength(1);
      expect(captures.every((outcome) => outcome.kind === 'captured' || outcome.kind === 'replayed')).toBe(true);
      expect(await walletOf(customer)).toMatchObject({ balance: credits(43), held: credits(0) });
      expect(await entriesOf(customer)).toHaveLength(2);
    });

    test('holds, captures, releases and reclaims racing never take the available balance below zero', async () => {
      const { store, root, customer, fund } = context();
      await fund(customer, credits(30));
      const work = Array.from({ length: 30 }, async (_, index) => {
        if (index % 3 === 0) return store.transfer(transferCommand(customer, root, credits(4)));
        const outcome = await store.authorize(authorizeCommand(customer, credits(3)));
        if (outcome.kind !== 'authorized') return outcome;
        return index % 3 === 1 ? store.capture(captureCommand(outcome.hold, credits(2))) : store.release({ ...outcome.hold, now: tick() });
      });
      await Promise.all(work);
      const wallet = await walletOf(customer);
      expect(wallet.held).toEqual(credits(0));
      expect(wallet.balance.creditUnits).toBeGreaterThanOrEqual(0);
      const entries = await entriesOf(customer);
      expect(entries.every((entry) => entry.balanceAfter.creditUnits >= 0)).toBe(true);
      expect(entries.reduce((sum, entry) => sum + entry.amount.creditUnits, 0)).toBe(wallet.balance.creditUnits);
    });
  });
}
