// Runs the TelephonyStore contract against SQLite always, and against MongoDB when MONGODB_URI is set.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCommonConfig } from '@voice/runtime/config';
import { newId } from '@voice/runtime/ids';
import { connectMongoTelephonyStore } from '../src/store/mongo.js';
import { openTelephonyStore } from '../src/store/open.js';
import { openSqliteTelephonyStore } from '../src/store/sqlite.js';
import { describeTelephonyStoreContract, messageRecord, numberRecord } from './store.contract.js';
import { mongoTestDatabases } from '../../runtime/test/mongo-databases.js';

describe('SqliteTelephonyStore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'telephony-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  describeTelephonyStoreContract('contract', async () => openSqliteTelephonyStore(join(dir, `${newId()}.sqlite`)));

  test('data, sends in flight and the outbox survive reopening the file', async () => {
    const file = join(dir, 'reopen.sqlite');
    const workspace = newId();
    const first = openSqliteTelephonyStore(file);
    const number = numberRecord(workspace);
    await first.insertNumber(number);
    const message = messageRecord(workspace, { creditUnits: 100 });
    await first.beginSend(message);
    const accepted = await first.acceptSend(message.id, 'SM-1', { id: 'capture-1', subject: 'usage.telephony.sms', payload: new Uint8Array([7]) }, message.createdAt);
    const waiting = messageRecord(workspace);
    await first.beginSend(waiting);
    await first.close();

    const second = openSqliteTelephonyStore(file);
    expect(await second.getNumber(workspace, number.id)).toEqual(number);
    expect(await second.getMessage(workspace, message.id)).toEqual(accepted);
    expect(await second.interruptedSends(new Date(Date.parse(waiting.createdAt) + 1).toISOString(), 10)).toEqual([waiting]);
    expect((await second.outbox.pending(10)).map((event) => event.id)).toEqual(['capture-1']);
    await second.close();
  });

  test('openTelephonyStore keeps SQLite in the data directory when no MongoDB is configured', async () => {
    const dataDir = join(dir, 'data');
    const store = await openTelephonyStore(readCommonConfig({ DATA_DIR: dataDir }));
    expect(existsSync(join(dataDir, 'telephony.sqlite'))).toBe(true);
    await store.close();
  });
});

const mongoUri = process.env.MONGODB_URI;
const describeMongo = mongoUri ? describe : describe.skip;
if (!mongoUri) console.info('MongoTelephonyStore contract skipped: MONGODB_URI is not set (no MongoDB server on this machine).');

describeMongo('MongoTelephonyStore', () => {
  // A database per test: sends other tests left waiting would show in interruptedSends.
  const databases = mongoTestDatabases(mongoUri!, 'voice-test-telephony');
  afterAll(() => databases.dropAll());
  describeTelephonyStoreContract('contract', () => connectMongoTelephonyStore(mongoUri!, databases.next()));
});
