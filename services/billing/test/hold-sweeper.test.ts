// The sweeper of expired holds over a real SQLite store, with the clock moved by hand: only holds
// past their expiry are released, at most a batch per run, as expired; two sweeps racing release each once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { HoldSweeper } from '../src/holds/hold-sweeper.js';
import { SqliteBillingStore } from '../src/store/sqlite.js';
import { authorizeCommand, credits, transferCommand } from './store-commands.js';

const dir = mkdtempSync(join(tmpdir(), 'billing-sweeper-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const logger = createLogger({ service: 'sweeper-test', level: 'silent' });
const start = Date.parse('2026-06-01T12:00:00.000Z');
const at = (seconds: number) => new Date(start + seconds * 1000);

async function storeWithWallet() {
  const store = new SqliteBillingStore(join(dir, `${newId()}.sqlite`));
  const [root, customer] = [newId(), newId()];
  await store.openWallet(root, true, at(0).toISOString());
  await store.openWallet(customer, false, at(0).toISOString());
  await store.transfer(transferCommand(root, customer, credits(10_000), { now: at(0).toISOString() }));
  return { store, customer };
}

test('releases the holds that expired by the time it runs, as expired, and gives their amounts back', async () => {
  const { store, customer } = await storeWithWallet();
  try {
    const short = authorizeCommand(customer, credits(100), { expiresInSeconds: 60, now: at(1).toISOString() });
    const long = authorizeCommand(customer, credits(200), { expiresInSeconds: 3_600, now: at(1).toISOString() });
    const captured = authorizeCommand(customer, credits(50), { expiresInSeconds: 30, now: at(1).toISOString() });
    for (const command of [short, long, captured]) expect((await store.authorize(command)).kind).toBe('authorized');
    await store.capture({ workspaceId: customer, holdId: captured.holdId, amount: credits(50), description: '', fingerprint: 'f', now: at(2).toISOString(), afterSettled: 'refuse' });
    const sweeper = new HoldSweeper({ store, logger });

    expect(await sweeper.runOnce(at(60), 500)).toBe(0);
    expect(await sweeper.runOnce(at(61), 500)).toBe(1);
    expect(await store.getHold(customer, short.holdId)).toMatchObject({ status: 'expired', settledAt: at(61).toISOString() });
    expect(await store.getHold(customer, long.holdId)).toMatchObject({ status: 'open' });
    expect(await store.getHold(customer, captured.holdId)).toMatchObject({ status: 'captured' });
    expect(await store.getWallet(customer)).toMatchObject({ balance: credits(9_950), held: credits(200) });
    expect(await sweeper.runOnce(at(3_602), 500)).toBe(1);
    expect(await store.getWallet(customer)).toMatchObject({ balance: credits(9_950), held: credits(0) });
  } finally {
    await store.close();
  }
});

test('releases at most a batch per run, and two sweeps at once release each hold once', async () => {
  const { store, customer } = await storeWithWallet();
  try {
    const holds = Array.from({ length: 450 }, (_, index) => authorizeCommand(customer, credits(1), { expiresInSeconds: 10 + (index % 7), now: at(1).toISOString() }));
    for (const command of holds) await store.authorize(command);
    expect(await store.getWallet(customer)).toMatchObject({ held: credits(450) });
    const sweeper = new HoldSweeper({ store, logger });
    expect(await sweeper.runOnce(at(30), 200)).toBe(200);
    expect(await store.getWallet(customer)).toMatchObject({ held: credits(250) });
    const [first, second] = await Promise.all([sweeper.runOnce(at(30), 500), new HoldSweeper({ store, logger }).runOnce(at(30), 500)]);
    expect(first + second).toBe(250);
    expect(await store.getWallet(customer)).toMatchObject({ balance: credits(10_000), held: credits(0) });
    expect(await store.expiredHolds(at(30).toISOString(), 10)).toEqual([]);
  } finally {
    await store.close();
  }
});

test('stops between holds when its signal aborts', async () => {
  const { store, customer } = await storeWithWallet();
  try {
    for (let index = 0; index < 5; index += 1) await store.authorize(authorizeCommand(customer, credits(1), { expiresInSeconds: 10, now: at(1).toISOString() }));
    const controller = new AbortController();
    controller.abort();
    expect(await new HoldSweeper({ store, logger }).runOnce(at(30), 500, controller.signal)).toBe(0);
    expect(await store.getWallet(customer)).toMatchObject({ held: credits(5) });
  } finally {
    await store.close();
  }
});
