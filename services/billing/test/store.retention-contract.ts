// The pruning part of the BillingStore contract (run by store.contract.ts against each adapter):
// settled holds, usage-event ids and published wallet events go once they are old enough, at most
// a batch at a time, and nothing else goes with them.
import type { Units } from '../src/domain/amounts.js';
import type { BillingStore } from '../src/store/store.js';
import { authorizeCommand, captureCommand, credits, tick, usageCommand } from './store-commands.js';

export interface RetentionContractContext {
  store: BillingStore;
  customer: string;
  fund(workspaceId: string, amount: Units): Promise<void>;
}

export function retentionContract(context: () => RetentionContractContext): void {
  describe('pruning', () => {
    test('deletes holds settled before the cut-off, earliest settled first and at most the batch; open holds stay', async () => {
      const { store, customer, fund } = context();
      await fund(customer, credits(100));
      const [captured, released, open, late] = [authorizeCommand(customer, credits(5)), authorizeCommand(customer, credits(5)), authorizeCommand(customer, credits(5)), authorizeCommand(customer, credits(5))];
      for (const command of [captured, released, open, late]) expect((await store.authorize(command)).kind).toBe('authorized');
      expect((await store.capture(captureCommand(captured, credits(4)))).kind).toBe('captured');
      expect((await store.release({ workspaceId: customer, holdId: released.holdId, now: tick() })).kind).toBe('released');
      const cutOff = tick();
      expect((await store.release({ workspaceId: customer, holdId: late.holdId, now: tick() })).kind).toBe('released');

      expect(await store.pruneSettledHolds(cutOff, 1)).toBe(1);
      expect(await store.getHold(customer, captured.holdId)).toBeUndefined();
      expect(await store.getHold(customer, released.holdId)).toBeDefined();
      expect(await store.pruneSettledHolds(cutOff, 10)).toBe(1);
      expect(await store.pruneSettledHolds(cutOff, 10)).toBe(0);
      expect(await store.getHold(customer, released.holdId)).toBeUndefined();
      expect(await store.getHold(customer, open.holdId)).toMatchObject({ status: 'open' });
      expect(await store.getHold(customer, late.holdId)).toMatchObject({ status: 'released' });
      // The wallet and its ledger are not touched: the capture's debit stands, the open hold still reserves.
      expect(await store.getWallet(customer)).toMatchObject({ balance: credits(96), held: credits(5) });
    });

    test('forgets usage-event ids applied before the cut-off, at most the batch; later ones are still recognised', async () => {
      const { store, customer, fund } = context();
      await fund(customer, credits(100));
      const [first, second] = [usageCommand(customer, credits(1)), usageCommand(customer, credits(1))];
      expect((await store.applyUsage(first)).kind).toBe('applied');
      expect((await store.applyUsage(second)).kind).toBe('applied');
      const cutOff = tick();
      const third = usageCommand(customer, credits(1));
      expect((await store.applyUsage(third)).kind).toBe('applied');

      expect(await store.pruneProcessedEvents(cutOff, 1)).toBe(1);
      expect(await store.pruneProcessedEvents(cutOff, 10)).toBe(1);
      expect(await store.pruneProcessedEvents(cutOff, 10)).toBe(0);
      expect(await store.applyUsage({ ...third, now: tick() })).toEqual({ kind: 'already_applied' });
      expect(await store.getWallet(customer)).toMatchObject({ balance: credits(97) });
    });

    test('deletes wallet events published before the cut-off, never unpublished ones', async () => {
      const { store, customer, fund } = context();
      await fund(customer, credits(100));
      expect((await store.applyUsage(usageCommand(customer, credits(1)))).kind).toBe('applied');
      const pending = await store.outbox.pending(100);
      expect(pending.length).toBeGreaterThanOrEqual(3);
      await store.outbox.markPublished([pending[0]!.id], tick());
      await store.outbox.markPublished([pending[1]!.id], tick());
      const cutOff = tick();
      await store.outbox.markPublished([pending[2]!.id], tick());

      expect(await store.outbox.prune(cutOff, 1)).toBe(1);
      expect(await store.outbox.prune(cutOff, 10)).toBe(1);
      expect(await store.outbox.prune(cutOff, 10)).toBe(0);
      expect((await store.outbox.pending(100)).map((event) => event.id)).toEqual(pending.slice(3).map((event) => event.id));
    });
  });
}
