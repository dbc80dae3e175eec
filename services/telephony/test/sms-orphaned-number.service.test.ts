// A precondition the public API cannot reach (a connection in use cannot be deleted), kept for
// data that got there another way: an imported number without a carrier connection is a 409
// telephony_configuration_error, nothing is held and no message is made.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Code } from '@connectrpc/connect';
import { SecretBox } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import { openSqliteTelephonyStore } from '../src/store/sqlite.js';
import { failure, GrantedHolds, sandboxCarriers, setup } from './harness.js';
import { numberRecord } from './store.contract.js';

test('an imported number whose carrier connection is gone cannot send: 409 telephony_configuration_error, nothing held', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'telephony-orphan-'));
  const store = openSqliteTelephonyStore(join(dir, 'telephony.sqlite'));
  const box = new SecretBox(randomBytes(32));
  const carriers = sandboxCarriers(box);
  try {
    const workspaceId = newId();
    const number = numberRecord(workspaceId, { source: 'imported', smsOutboundEnabled: true, carrierConnectionId: null });
    await store.insertNumber(number);
    const holds = new GrantedHolds();
    const tier = await setup({ store, box, carriers, holds });
    const refusal = await failure(tier.client.sendSms({ fromNumberId: number.id, to: '+442071838750', body: 'hello', idempotencyKey: '' }, tier.inWorkspace(workspaceId)));
    expect(refusal).toMatchObject({ code: Code.FailedPrecondition, reason: 'telephony_configuration_error' });
    expect(refusal.message).toMatch(/no carrier connection/);
    expect(holds.requests).toEqual([]);
    expect(await store.interruptedSends(new Date(Date.now() + 1_000).toISOString(), 10)).toEqual([]);
    expect((await store.listMessages(workspaceId, {}, { limit: 10, offset: 0 })).total).toBe(0);
  } finally {
    carriers.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
