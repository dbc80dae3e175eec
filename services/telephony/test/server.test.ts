// Tier 3: the telephony service on a real server (port 0, loopback) with a real HTTP/2 client over a
// SQLite store and the sandbox carrier: what crosses the wire (signed callers, error details),
// concurrent sends under one Idempotency-Key on one connection, and a clean close.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Code, createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { TelephonyService } from '@voice/proto/voice/telephony/v1/telephony';
import { SecretBox } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import { openSqliteTelephonyStore } from '../src/store/sqlite.js';
import type { CarrierDirectory } from '../src/carriers/directory.js';
import { failure, GrantedHolds, sandboxCarriers, setup, type HarnessParts } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'telephony-server-'));
const box = new SecretBox(randomBytes(32));
const stores: { close(): Promise<void> }[] = [];
const directories: CarrierDirectory[] = [];

function parts(holds = new GrantedHolds()): HarnessParts {
  const store = openSqliteTelephonyStore(join(dir, `${newId()}.sqlite`));
  const carriers = sandboxCarriers(box);
  stores.push(store);
  directories.push(carriers);
  return { store, box, carriers, holds };
}

afterAll(async () => {
  for (const carriers of directories) carriers.close();
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a number is bought and an SMS sent over HTTP/2; refusals keep their codes and reasons', async () => {
  const tier = await setup(parts(), 'server');
  try {
    const workspace = tier.inWorkspace(newId());
    expect((await failure(tier.client.listNumbers({}))).code).toBe(Code.Unauthenticated);
    const [offer] = (await tier.client.searchAvailableNumbers({ country: 'GB', limit: 1 }, workspace)).numbers;
    const number = (await tier.client.buyNumber({ number: offer!.number }, workspace)).number!;
    expect(await failure(tier.client.sendSms({ fromNumberId: number.id, to: '+442071838750', body: 'hi', idempotencyKey: '' }, workspace))).toMatchObject({
      code: Code.FailedPrecondition,
    });
    await tier.client.updateNumber({ id: number.id, smsOutboundEnabled: true }, workspace);
    const sent = await tier.client.sendSms({ fromNumberId: number.id, to: '+442071838750', body: 'hi', idempotencyKey: '' }, workspace);
    expect(sent.message).toMatchObject({ status: 'queued', segments: 1, creditUnits: 100n });
    expect(await failure(tier.client.getNumber({ id: number.id }, tier.inWorkspace(newId())))).toMatchObject({ code: Code.NotFound, reason: 'not_found' });
  } finally {
    await tier.close();
  }
});

test('concurrent sends under one Idempotency-Key on one connection make one message and one hold', async () => {
  const holds = new GrantedHolds();
  const tier = await setup(parts(holds), 'server');
  try {
    const workspace = tier.inWorkspace(newId());
    const [offer] = (await tier.client.searchAvailableNumbers({ country: 'GB', limit: 1 }, workspace)).numbers;
    const number = (await tier.client.buyNumber({ number: offer!.number }, workspace)).number!;
    await tier.client.updateNumber({ id: number.id, smsOutboundEnabled: true }, workspace);
    const send = { fromNumberId: number.id, to: '+442071838750', body: 'one only', idempotencyKey: `key-${newId()}` };
    const answers = await Promise.allSettled(Array.from({ length: 6 }, () => tier.client.sendSms(send, workspace)));
    const ids = new Set(answers.flatMap((answer) => (answer.status === 'fulfilled' ? [answer.value.message!.id] : [])));
    expect(ids.size).toBe(1);
    expect(holds.requests).toHaveLength(1);
    expect((await tier.client.listMessages({}, workspace)).total).toBe(1);
  } finally {
    await tier.close();
  }
});

test('after close the port is free and a new client reaches nothing', async () => {
  const tier = await setup(parts(), 'server');
  const workspace = tier.inWorkspace(newId());
  expect((await tier.client.listNumbers({}, workspace)).total).toBe(0);
  await tier.close();
  const client = createClient(TelephonyService, createConnectTransport({ baseUrl: tier.url!, httpVersion: '2' }));
  expect((await failure(client.listNumbers({}, workspace))).message).toMatch(/ECONNREFUSED/);
});
