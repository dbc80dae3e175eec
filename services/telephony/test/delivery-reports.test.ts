// A delivery report that arrives before the send's acceptance is recorded is kept and lands with
// the acceptance (the carrier is not asked to send it again, and nothing waits for it); one for a
// recorded message moves it and wakes the relay for its event.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@voice/runtime/ids';
import { recordDelivery } from '../src/sms/delivery-reports.js';
import { smsStatusChangedEvent } from '../src/sms/status-events.js';
import { openSqliteTelephonyStore } from '../src/store/sqlite.js';
import { messageRecord } from './store.contract.js';

const dir = mkdtempSync(join(tmpdir(), 'telephony-delivery-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a report that comes before the acceptance is recorded lands with the acceptance', async () => {
  const store = openSqliteTelephonyStore(join(dir, `${newId()}.sqlite`));
  try {
    const message = messageRecord(newId());
    expect(await store.beginSend(message)).toEqual({ kind: 'begun' });
    const carrierMessageId = `SM${newId()}`;
    let wakes = 0;
    const recorder = { store, wakeRelay: () => (wakes += 1) };
    const report = { carrierConnectionId: null, carrierMessageId, update: { status: 'delivered' as const, at: new Date().toISOString() } };
    expect(await recordDelivery(recorder, report)).toBeUndefined();
    expect(wakes).toBe(0);

    const accepted = await store.acceptSend(message.id, carrierMessageId, undefined, new Date().toISOString(), smsStatusChangedEvent);
    expect(accepted).toMatchObject({ id: message.id, status: 'delivered' });
    expect(await store.getMessage(message.workspaceId, message.id)).toEqual(accepted);
    expect((await store.outbox.pending(10)).map((event) => event.subject)).toEqual([smsStatusChangedEvent(accepted!).subject]);

    // A report once the message is recorded moves nothing further here, yet answers the message.
    expect(await recordDelivery(recorder, report)).toEqual(accepted);
    expect(wakes).toBe(1);
  } finally {
    await store.close();
  }
});
