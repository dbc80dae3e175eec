// Runs the ToolStore contract against SQLite always, and against MongoDB when MONGODB_URI is set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@voice/runtime/ids';
import { MongoToolStore } from '../src/store/mongo.js';
import { SqliteToolStore } from '../src/store/sqlite.js';
import { toolStoreContract } from './store.contract.js';
import { mongoTestDatabases } from '../../runtime/test/mongo-databases.js';

describe('SqliteToolStore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tools-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  toolStoreContract(async () => new SqliteToolStore(join(dir, `${newId()}.sqlite`)));

  test('data survives reopening the file', async () => {
    const file = join(dir, 'reopen.sqlite');
    const first = new SqliteToolStore(file);
    const workspace = newId();
    const { toolRecord } = await import('./store.contract.js');
    const tool = toolRecord(workspace);
    await first.create(tool);
    await first.close();
    const second = new SqliteToolStore(file);
    expect(await second.get(workspace, tool.id)).toEqual(tool);
    await second.close();
  });
});

const mongoUri = process.env.MONGODB_URI;
const describeMongo = mongoUri ? describe : describe.skip;
if (!mongoUri) console.info('MongoToolStore contract skipped: MONGODB_URI is not set (no MongoDB server on this machine).');

describeMongo('MongoToolStore', () => {
  const databases = mongoTestDatabases(mongoUri!, 'voice-test-tools');
  afterAll(() => databases.dropAll());
  toolStoreContract(() => MongoToolStore.connect(mongoUri!, databases.next()));
});
