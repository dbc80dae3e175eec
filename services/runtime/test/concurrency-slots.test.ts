// Concurrency slots against the real NATS server (JetStream key-value) and in memory: two replicas
// taking slots of one group at once never hold more than its limit; a holder takes its slot once;
// released slots are taken again; a dead owner's slot is reclaimed only past the grace period and
// only when the service disowns it.
import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { ConcurrencySlots, MemorySlotTable, type ConcurrencySlotsOptions, type SlotTable } from '../src/counters/concurrency-slots.js';
import { NatsSlotTable } from '../src/counters/nats-slot-table.js';

const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const bucket = `test_slots_${randomBytes(4).toString('hex')}`;
let now = Date.parse('2026-11-24T10:00:00.000Z');
const clock = () => now;
const disowned = new Set<string>();
const options: ConcurrencySlotsOptions = { stillHeld: async (_group, holder) => !disowned.has(holder), graceMs: 30_000, clock };
const tables: SlotTable[] = [];

afterAll(async () => {
  await Promise.all(tables.map((table) => table.close()));
  // The shared NATS server keeps buckets for good: remove this run's.
  const admin = await connect({ servers: natsUrl });
  try {
    await (await admin.jetstreamManager()).streams.delete(`KV_${bucket}`);
  } finally {
    await admin.close();
  }
});

/** Two replicas over one store of slots: two NATS connections to one bucket, or one memory table. */
const setups: [string, () => Promise<[ConcurrencySlots, ConcurrencySlots]>][] = [
  [
    'NATS KV',
    async () => {
      const a = await NatsSlotTable.connect(natsUrl, bucket, 3600_000);
      const b = await NatsSlotTable.connect(natsUrl, bucket, 3600_000);
      tables.push(a, b);
      return [new ConcurrencySlots(a, options), new ConcurrencySlots(b, options)];
    },
  ],
  [
    'memory',
    async () => {
      const table = new MemorySlotTable();
      return [new ConcurrencySlots(table, options), new ConcurrencySlots(table, options)];
    },
  ],
];

describe.each(setups)('%s', (_name, open) => {
  let a: ConcurrencySlots;
  let b: ConcurrencySlots;
  beforeAll(async () => {
    [a, b] = await open();
  });
  const group = () => `ws.${expect.getState().currentTestName!.length}.${randomBytes(3).toString('hex')}`;

  test('40 holders asking two replicas at once for 5 slots: exactly 5 get one, and releases let others in', async () => {
    const key = group();
    const holders = Array.from({ length: 40 }, (_, i) => `lead-${i}:1`);
    const taken = await Promise.all(holders.map((holder, i) => (i % 2 === 0 ? a : b).acquire(key, holder, 5)));
    const winners = holders.filter((_, i) => taken[i]);
    expect(winners).toHaveLength(5);
    expect((await a.holders(key)).sort()).toEqual([...winners].sort());

    await Promise.all(winners.slice(0, 2).map((holder) => b.release(key, holder)));
    const losers = holders.filter((_, i) => !taken[i]);
    const second = await Promise.all(losers.map((holder, i) => (i % 2 === 0 ? b : a).acquire(key, holder, 5)));
    expect(second.filter(Boolean)).toHaveLength(2);
    expect(await b.holders(key)).toHaveLength(5);
  });

  test('a holder asking again keeps its one slot; releasing twice or a stranger changes nothing', async () => {
    const key = group();
    expect(await a.acquire(key, 'lead-a:1', 2)).toBe(true);
    expect(await b.acquire(key, 'lead-a:1', 2)).toBe(true);
    expect(await a.holders(key)).toEqual(['lead-a:1']);
    expect(await b.acquire(key, 'lead-b:1', 2)).toBe(true);
    expect(await a.acquire(key, 'lead-c:1', 2)).toBe(false);
    await a.release(key, 'lead-a:1');
    await b.release(key, 'lead-a:1');
    await b.release(key, 'nobody:1');
    expect(await a.holders(key)).toEqual(['lead-b:1']);
    expect(await b.acquire(key, 'lead-c:1', 2)).toBe(true);
  });

  test('a lowered limit admits nobody until enough holders have left', async () => {
    const key = group();
    for (const holder of ['h1', 'h2', 'h3']) expect(await a.acquire(key, holder, 3)).toBe(true);
    expect(await b.acquire(key, 'h4', 2)).toBe(false);
    await a.release(key, 'h1');
    expect(await b.acquire(key, 'h4', 2)).toBe(false);
    await a.release(key, 'h2');
    expect(await b.acquire(key, 'h4', 2)).toBe(true);
  });

  test('a full group reclaims a slot whose owner died, once past the grace period and disowned', async () => {
    const key = group();
    expect(await a.acquire(key, 'dead:1', 2)).toBe(true);
    expect(await a.acquire(key, 'live:1', 2)).toBe(true);
    disowned.add('dead:1');
    // Within the grace period a disowned holder keeps its slot: its work may be about to be recorded.
    expect(await b.acquire(key, 'next:1', 2)).toBe(false);
    now += 30_001;
    expect(await b.acquire(key, 'next:1', 2)).toBe(true);
    expect((await a.holders(key)).sort()).toEqual(['live:1', 'next:1']);
    // A holder the service still owns is never reclaimed, however old.
    now += 3600_000;
    expect(await b.acquire(key, 'other:1', 2)).toBe(false);
  });
});
