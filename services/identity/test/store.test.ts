// Runs the IdentityStore contract on SQLite always, and on MongoDB when MONGODB_URI is set.
import { connectMongoIdentityStore } from '../src/store/mongo.js';
import { openSqliteIdentityStore } from '../src/store/sqlite.js';
import { apiKeyRecord, identityStoreContract, workspaceRecord } from './store.contract.js';
import { runStoreContract } from '../../runtime/test/store-contract.js';

runStoreContract({
  name: 'identity',
  contract: identityStoreContract,
  sqlite: openSqliteIdentityStore,
  mongo: connectMongoIdentityStore,
  sqliteOnly: (file) => {
    test('data survives reopening the file, and a reopened store does not bootstrap again', async () => {
      const path = file();
      const first = openSqliteIdentityStore(path);
      const root = workspaceRecord({ plan: 'enterprise' });
      const key = apiKeyRecord(root.id, { scopes: null });
      expect(await first.bootstrapRoot(root, key)).toBe('created');
      await first.close();
      const second = openSqliteIdentityStore(path);
      try {
        expect(await second.rootWorkspace()).toEqual(root);
        expect(await second.findApiKeyByHash(key.keyHash)).toEqual(key);
        const again = workspaceRecord();
        expect(await second.bootstrapRoot(again, apiKeyRecord(again.id, { scopes: null }))).toBe('exists');
      } finally {
        await second.close();
      }
    });

    test('two stores on one file bootstrap exactly one root', async () => {
      const path = file();
      const left = openSqliteIdentityStore(path);
      const right = openSqliteIdentityStore(path);
      try {
        const a = workspaceRecord();
        const b = workspaceRecord();
        const outcomes = await Promise.all([left.bootstrapRoot(a, apiKeyRecord(a.id)), right.bootstrapRoot(b, apiKeyRecord(b.id))]);
        expect([...outcomes].sort()).toEqual(['created', 'exists']);
        expect(await left.rootWorkspace()).toEqual(await right.rootWorkspace());
      } finally {
        await left.close();
        await right.close();
      }
    });
  },
});
