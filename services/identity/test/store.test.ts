// Runs the IdentityStore contract against SQLite always, and against MongoDB when MONGODB_URI is set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@voice/runtime/ids';
import { MongoIdentityStore } from '../src/store/mongo.js';
import { SqliteIdentityStore } from '../src/store/sqlite.js';
import { apiKeyRecord, identityStoreContract, workspaceRecord } from './store.contract.js';
import { mongoTestDatabases } from '../../runtime/test/mongo-databases.js';

describe('SqliteIdentityStore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'identity-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  identityStoreContract(async () => new SqliteIdentityStore(join(dir, `${newId()}.sqlite`)));

  test('data survives reopening the file, and a reopened store does not bootstrap again', async () => {
    const file = join(dir, 'reopen.sqlite');
    const first = new SqliteIdentityStore(file);
    const root = workspaceRecord({ plan: 'enterprise' });
    const key = apiKeyRecord(root.id, { scopes: null });
    expect(await first.bootstrapRoot(root, key)).toBe('created');
    await first.close();
    const second = new SqliteIdentityStore(file);
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
    const file = join(dir, 'shared.sqlite');
    const left = new SqliteIdentityStore(file);
    const right = new SqliteIdentityStore(file);
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
});

const mongoUri = process.env.MONGODB_URI;
const describeMongo = mongoUri ? describe : describe.skip;
if (!mongoUri) console.info('MongoIdentityStore contract skipped: MONGODB_URI is not set (no MongoDB server on this machine).');

describeMongo('MongoIdentityStore', () => {
  // A database per test: the root workspace is global to a store.
  const databases = mongoTestDatabases(mongoUri!, 'voice-test-identity');
  afterAll(() => databases.dropAll());
  identityStoreContract(() => MongoIdentityStore.connect(mongoUri!, databases.next()));
});
