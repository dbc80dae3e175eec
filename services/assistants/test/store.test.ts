// Runs the assistants store contract on SQLite always, and on MongoDB when MONGODB_URI is set.
import { newId } from '@voice/runtime/ids';
import { MongoAssistantsStore } from '../src/store/mongo.js';
import { SqliteAssistantsStore } from '../src/store/sqlite.js';
import { assistantRecord, assistantsStoreContract, versionOf } from './store.contract.js';
import { runStoreContract } from '../../runtime/test/store-contract.js';

runStoreContract({
  name: 'assistants',
  contract: assistantsStoreContract,
  sqlite: (file) => new SqliteAssistantsStore(file),
  mongo: (uri, database) => MongoAssistantsStore.connect(uri, database),
  sqliteOnly: (file) => {
    test('data survives reopening the file', async () => {
      const path = file();
      const first = new SqliteAssistantsStore(path);
      const workspace = newId();
      const assistant = assistantRecord(workspace);
      await first.create(assistant, versionOf(assistant));
      await first.close();
      const second = new SqliteAssistantsStore(path);
      try {
        expect(await second.get(workspace, assistant.id)).toEqual(assistant);
        expect(await second.getVersion(workspace, assistant.id, 1)).toEqual(versionOf(assistant));
      } finally {
        await second.close();
      }
    });
  },
});
