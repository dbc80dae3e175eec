// A precondition the public API cannot reach (a connection in use cannot be deleted), kept for
// data that got there another way: an imported number without a carrier connection is a 409
// telephony_configuration_error, nothing is held and no message is made.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Code, ConnectError } from '@connectrpc/connect';
import { SecretBox } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import { CarrierDirectory } from '../src/carriers/directory.js';
import { carrierFor, CircuitBreakers } from '../src/carriers/registry.js';
import { openSqliteTelephonyStore } from '../src/store/sqlite.js';
import { contextOf, GrantedHolds, serviceOver } from './service-harness.js';
import { numberRecord } from './store.contract.js';

test('an imported number whose carrier connection is gone cannot send: 409 telephony_configuration_error, nothing held', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'telephony-orphan-'));
  const store = openSqliteTelephonyStore(join(dir, 'telephony.sqlite'));
  const box = new SecretBox(randomBytes(32));
  const carriers = new CarrierDirectory({
    platform: { provider: 'sandbox' },
    box,
    publicUrl: 'https://voice.example',
    build: (account) => carrierFor(account, { breakers: new CircuitBreakers(), allowPrivate: false, onDelivery: () => undefined }),
  });
  try {
    const workspaceId = newId();
    const number = numberRecord(workspaceId, { source: 'imported', smsOutboundEnabled: true, carrierConnectionId: null });
    await store.insertNumber(number);
    const holds = new GrantedHolds();
    const service = serviceOver({ store, box, carriers, holds });
    const context = contextOf(workspaceId);
    const refusal = await Promise.resolve()
      .then(() => service.sendSms({ $typeName: 'voice.telephony.v1.SendSmsRequest', fromNumberId: number.id, to: '+442071838750', body: 'hello', idempotencyKey: '' }, context))
      .then(() => undefined, (error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConnectError);
    expect((refusal as ConnectError).code).toBe(Code.FailedPrecondition);
    expect((refusal as ConnectError).rawMessage).toMatch(/no carrier connection/);
    expect(holds.requests).toEqual([]);
    expect(await store.interruptedSends(new Date(Date.now() + 1_000).toISOString(), 10)).toEqual([]);
    expect((await store.listMessages(workspaceId, {}, { limit: 10, offset: 0 })).total).toBe(0);
  } finally {
    carriers.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
