// Runs the CallStore contract on SQLite always, and on MongoDB when MONGODB_URI is set.
import { newId } from '@voice/runtime/ids';
import { MongoCallStore } from '../src/store/mongo.js';
import { SqliteCallStore } from '../src/store/sqlite.js';
import { callRecord, callStoreContract } from './store.contract.js';
import { runStoreContract } from '../../runtime/test/store-contract.js';

runStoreContract({
  name: 'calls',
  contract: callStoreContract,
  sqlite: (file) => new SqliteCallStore(file),
  mongo: (uri, database) => MongoCallStore.connect(uri, database),
  sqliteOnly: (file) => {
    test('data survives reopening the file', async () => {
      const path = file();
      const first = new SqliteCallStore(path);
      const workspace = newId();
      const call = callRecord(workspace);
      await first.createCall(call);
      await first.close();
      const second = new SqliteCallStore(path);
      try {
        expect(await second.getCall(workspace, call.id)).toEqual({ ...call, reports: [] });
      } finally {
        await second.close();
      }
    });
  },
});
