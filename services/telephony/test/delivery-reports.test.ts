// A delivery report that arrives before the send's acceptance is recorded is applied once the
// acceptance commits (tried again a few times), and one for a message never recorded is dropped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { recordDelivery } from '../src/sms/delivery-reports.js';
import { openSqliteTelephonyStore } from '../src/store/sqlite.js';
import { messageRecord } from './store.contract.js';

const logger = createLogger({ service: 'delivery-reports-test', level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'telephony-delivery-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a report that comes before the acceptance is recorded lands once the acceptance commits', async () => {
  const store = openSqliteTelephonyStore(join(dir, `${newId()}.sqlite`));
  try {
    const message = messageRecord(newId());
    expect(await store.beginSend(message)).toEqual({ kind: 'begun' });
    const carrierMessageId = `SM${newId()}`;
    let tries = 0;
    // The acceptance commits between the first try and the second.
    const counting = {
      applyDelivery: async (...args: Parameters<typeof store.applyDelivery>) => {
        tries += 1;
        const applied = await store.applyDelivery(...args);
        if (tries === 1) await store.acceptSend(message.id, carrierMessageId, undefined, new Date().toISOString());
        return applied;
      },
    };
    const delivered = await recordDelivery({ store: counting, wakeRelay: () => {} }, { carrierConnectionId: null, carrierMessageId, update: { status: 'delivered', at: new Date().toISOString() } }, logger, [1, 1]);
    expect(tries).toBe(2);
    expect(delivered).toMatchObject({ id: message.id, status: 'delivered' });
  } finally {
    await store.close();
  }
});

test('a report for a carrier id no message ever holds is dropped after the last try', async () => {
  const store = openSqliteTelephonyStore(join(dir, `${newId()}.sqlite`));
  try {
    let tries = 0;
    const counting = { applyDelivery: (...args: Parameters<typeof store.applyDelivery>) => ((tries += 1), store.applyDelivery(...args)) };
    expect(await recordDelivery({ store: counting, wakeRelay: () => {} }, { carrierConnectionId: null, carrierMessageId: 'SMunknown', update: { status: 'sent', at: new Date().toISOString() } }, logger, [1, 1, 1])).toBeUndefined();
    expect(tries).toBe(4);
  } finally {
    await store.close();
  }
});
