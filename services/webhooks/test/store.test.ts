// Runs the WebhooksStore contract on SQLite always, and on MongoDB when MONGODB_URI is set.
import { newId } from '@voice/runtime/ids';
import { MongoWebhooksStore } from '../src/store/mongo.js';
import { SqliteWebhooksStore } from '../src/store/sqlite.js';
import { endpointRecord, webhooksStoreContract } from './store.contract.js';
import { runStoreContract } from '../../runtime/test/store-contract.js';

runStoreContract({
  name: 'webhooks',
  contract: webhooksStoreContract,
  sqlite: (file) => new SqliteWebhooksStore(file),
  mongo: (uri, database) => MongoWebhooksStore.connect(uri, database),
  sqliteOnly: (file) => {
    test('data survives reopening the file', async () => {
      const path = file();
      const first = new SqliteWebhooksStore(path);
      const workspace = newId();
      const endpoint = endpointRecord(workspace);
      await first.createEndpoint(endpoint);
      await first.close();
      const second = new SqliteWebhooksStore(path);
      try {
        expect(await second.getEndpoint(workspace, endpoint.id)).toEqual(endpoint);
      } finally {
        await second.close();
      }
    });
  },
});
