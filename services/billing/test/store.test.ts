// Runs the BillingStore contract against SQLite always, and against MongoDB when MONGODB_URI is set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@voice/runtime/ids';
import { MongoBillingStore } from '../src/store/mongo.js';
import { SqliteBillingStore } from '../src/store/sqlite.js';
import { billingStoreContract } from './store.contract.js';
import { transferCommand } from './store-commands.js';
import { mongoTestDatabases } from '../../runtime/test/mongo-databases.js';

describe('SqliteBillingStore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'billing-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  billingStoreContract(async () => new SqliteBillingStore(join(dir, `${newId()}.sqlite`)));

  test('wallets, the ledger, idempotency and the outbox survive reopening the file', async () => {
    const file = join(dir, 'reopen.sqlite');
    const [root, customer] = [newId(), newId()];
    const first = new SqliteBillingStore(file);
    await first.openWallet(root, true, '2026-01-01T00:00:00.000Z');
    await first.openWallet(customer, false, '2026-01-01T00:00:00.000Z');
    const command = transferCommand(root, customer, { creditUnits: 10, minuteUnits: 0 });
    const transferred = await first.transfer(command);
    await first.close();
    const second = new SqliteBillingStore(file);
    expect(await second.getWallet(customer)).toMatchObject({ balance: { creditUnits: 10, minuteUnits: 0 }, version: 1 });
    expect(await second.transfer(command)).toEqual({ ...transferred, kind: 'replayed' });
    expect(await second.outbox.pending(10)).toHaveLength(2);
    await second.close();
  });
});

const mongoUri = process.env.MONGODB_URI;
const describeMongo = mongoUri ? describe : describe.skip;
if (!mongoUri) console.info('MongoBillingStore contract skipped: MONGODB_URI is not set (no MongoDB server on this machine).');

describeMongo('MongoBillingStore', () => {
  const databases = mongoTestDatabases(mongoUri!, 'voice-test-billing');
  afterAll(() => databases.dropAll());
  billingStoreContract(() => MongoBillingStore.connect(mongoUri!, databases.next()));
});
