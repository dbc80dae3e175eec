// Runs the assistants store contract against SQLite always, and against MongoDB when MONGODB_URI is set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@voice/runtime/ids';
import { MongoAssistantsStore } from '../src/store/mongo.js';
import { SqliteAssistantsStore } from '../src/store/sqlite.js';
import { assistantRecord, assistantsStoreContract, versionOf } from './store.contract.js';
import { mongoTestDatabases } from '../../runtime/test/mongo-databases.js';

describe('SqliteAssistantsStore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'assistants-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  assistantsStoreContract(async () => new SqliteAssistantsStore(join(dir, `${newId()}.sqlite`)));

  test('data survives reopening the file', async () => {
    const file = join(dir, 'reopen.sqlite');
    const first = new SqliteAssistantsStore(file);
    const workspace = newId();
    const assistant = assistantRecord(workspace);
    await first.create(assistant, versionOf(assistant));
    await first.close();
    const second = new SqliteAssistantsStore(file);
    expect(await second.get(workspace, assistant.id)).toEqual(assistant);
    expect(await second.getVersion(workspace, assistant.id, 1)).toEqual(versionOf(assistant));
    await second.close();
  });
});

const mongoUri = process.env.MONGODB_URI;
const describeMongo = mongoUri ? describe : describe.skip;
if (!mongoUri) console.info('MongoAssistantsStore contract skipped: MONGODB_URI is not set (no MongoDB server on this machine).');

describeMongo('MongoAssistantsStore', () => {
  const databases = mongoTestDatabases(mongoUri!, 'voice-test-assistants');
  afterAll(() => databases.dropAll());
  assistantsStoreContract(() => MongoAssistantsStore.connect(mongoUri!, databases.next()));
});
