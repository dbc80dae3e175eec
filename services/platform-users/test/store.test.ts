// Runs the CustomDomainStore contract against SQLite always, and against MongoDB when MONGODB_URI is set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@voice/runtime';
import { MongoCustomDomainStore } from '../src/store/mongo.js';
import { SqliteCustomDomainStore } from '../src/store/sqlite.js';
import { customDomainStoreContract, domainRecord } from './store.contract.js';

describe('SqliteCustomDomainStore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-users-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'domains.sqlite');
  customDomainStoreContract(async () => new SqliteCustomDomainStore(file));

  test('data survives reopening the file', async () => {
    const path = join(dir, 'reopen.sqlite');
    const first = new SqliteCustomDomainStore(path);
    const record = domainRecord(newId());
    await first.insert(record);
    await first.close();
    const second = new SqliteCustomDomainStore(path);
    expect(await second.get(record.workspaceId)).toEqual(record);
    await second.close();
  });
});

const mongoUri = process.env.MONGODB_URI;
const describeMongo = mongoUri ? describe : describe.skip;
if (!mongoUri) console.info('MongoCustomDomainStore contract skipped: MONGODB_URI is not set (no MongoDB server on this machine).');

describeMongo('MongoCustomDomainStore', () => {
  const database = `voice-test-platform-users-${process.pid}`;
  afterAll(async () => {
    const cleanup = await MongoCustomDomainStore.connect(mongoUri!, database);
    await cleanup.dropDatabase();
    await cleanup.close();
  });
  customDomainStoreContract(() => MongoCustomDomainStore.connect(mongoUri!, database));
});
