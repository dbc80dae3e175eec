// Runs the TelephonyStore contract on SQLite always, and on MongoDB when MONGODB_URI is set (a
// database per test: sends other tests left waiting would show in interruptedSends).
import { newId } from '@voice/runtime/ids';
import { connectMongoTelephonyStore } from '../src/store/mongo.js';
import { openSqliteTelephonyStore } from '../src/store/sqlite.js';
import { smsStatusChangedEvent } from '../src/sms/status-events.js';
import { messageRecord, numberRecord, telephonyStoreContract } from './store.contract.js';
import { callLegStoreContract } from './store.call-legs.contract.js';
import { runStoreContract, type OpenStore } from '../../runtime/test/store-contract.js';
import type { TelephonyStore } from '../src/store/store.js';

runStoreContract({
  name: 'telephony',
  contract: (open: OpenStore<TelephonyStore>) => {
    telephonyStoreContract(open);
    callLegStoreContract(open);
  },
  sqlite: (file) => openSqliteTelephonyStore(file),
  mongo: (uri, database) => connectMongoTelephonyStore(uri, database),
  sqliteOnly: (file) => {
    test('data, sends in flight and the outbox survive reopening the file', async () => {
      const path = file();
      const workspace = newId();
      const first = openSqliteTelephonyStore(path);
      const number = numberRecord(workspace);
      await first.insertNumber(number);
      const message = messageRecord(workspace, { creditUnits: 100 });
      await first.beginSend(message);
      const accepted = await first.acceptSend(message.id, 'SM-1', { id: 'capture-1', subject: 'usage.telephony.sms', payload: new Uint8Array([7]) }, message.createdAt, smsStatusChangedEvent);
      const waiting = messageRecord(workspace);
      await first.beginSend(waiting);
      await first.close();

      const second = openSqliteTelephonyStore(path);
      try {
        expect(await second.getNumber(workspace, number.id)).toEqual(number);
        expect(await second.getMessage(workspace, message.id)).toEqual(accepted);
        expect(await second.interruptedSends(new Date(Date.parse(waiting.createdAt) + 1).toISOString(), 10)).toEqual([waiting]);
        expect((await second.outbox.pending(10)).map((event) => event.id)).toEqual(['capture-1']);
      } finally {
        await second.close();
      }
    });
  },
});
