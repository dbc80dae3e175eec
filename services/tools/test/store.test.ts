// Runs the ToolStore contract on SQLite always, and on MongoDB when MONGODB_URI is set.
import { newId } from '@voice/runtime/ids';
import { MongoToolStore } from '../src/store/mongo.js';
import { SqliteToolStore } from '../src/store/sqlite.js';
import { toolRecord, toolStoreContract } from './store.contract.js';
import { runStoreContract } from '../../runtime/test/store-contract.js';

runStoreContract({
  name: 'tools',
  contract: toolStoreContract,
  sqlite: (file) => new SqliteToolStore(file),
  mongo: (uri, database) => MongoToolStore.connect(uri, database),
  sqliteOnly: (file) => {
    test('data survives reopening the file', async () => {
      const path = file();
      const first = new SqliteToolStore(path);
      const workspace = newId();
      const tool = toolRecord(workspace);
      await first.create(tool);
      await first.close();
      const second = new SqliteToolStore(path);
      try {
        expect(await second.get(workspace, tool.id)).toEqual(tool);
      } finally {
        await second.close();
      }
    });
  },
});
