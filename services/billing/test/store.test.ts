// Runs the BillingStore contract on SQLite always, and on MongoDB when MONGODB_URI is set.
import { newId } from '@voice/runtime/ids';
import { MongoBillingStore } from '../src/store/mongo.js';
import { SqliteBillingStore } from '../src/store/sqlite.js';
import { billingStoreContract } from './store.contract.js';
import { transferCommand } from './store-commands.js';
import { runStoreContract } from '../../runtime/test/store-contract.js';

runStoreContract({
  name: 'billing',
  contract: billingStoreContract,
  sqlite: (file) => new SqliteBillingStore(file),
  mongo: (uri, database) => MongoBillingStore.connect(uri, database),
  sqliteOnly: (file) => {
    test('wallets, the ledger, idempotency and the outbox survive reopening the file', async () => {
      const path = file();
      const [root, customer] = [newId(), newId()];
      const first = new SqliteBillingStore(path);
      await first.openWallet(root, true, '2026-01-01T00:00:00.000Z');
      await first.openWallet(customer, false, '2026-01-01T00:00:00.000Z');
      const command = transferCommand(root, customer, { creditUnits: 10, minuteUnits: 0 });
      const transferred = await first.transfer(command);
      await first.close();
      const second = new SqliteBillingStore(path);
      try {
        expect(await second.getWallet(customer)).toMatchObject({ balance: { creditUnits: 10, minuteUnits: 0 }, version: 1 });
        expect(await second.transfer(command)).toEqual({ ...transferred, kind: 'replayed' });
        expect(await second.outbox.pending(10)).toHaveLength(2);
      } finally {
        await second.close();
      }
    });
  },
});
