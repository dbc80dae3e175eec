// The concurrency slots' groups in a NATS JetStream key-value bucket, one entry per group, written
// only by compare-and-set: every replica sees and contends for the same slots. An entry nobody
// touched for the bucket's TTL (a campaign long stopped or deleted) expires.
import type { KV, NatsConnection } from 'nats';
import { closeNats, isRevisionConflict } from '../nats/connection.js';
import { kvKey, openKvBucket } from '../nats/kv.js';
import type { SlotHolders, SlotTable } from './concurrency-slots.js';

/** The longest one KV operation may take: a dial waits on it. */
const operationTimeoutMs = 2_000;

export class NatsSlotTable implements SlotTable {
  private constructor(
    private readonly connection: NatsConnection,
    private readonly kv: KV,
  ) {}

  /** `ttlMs`: longer than any holder's work lasts; `replicas`: copies of the bucket in a NATS cluster (VOICE_NATS_REPLICAS). */
  static async connect(url: string, bucket: string, ttlMs: number, replicas = 1): Promise<NatsSlotTable> {
    const { connection, kv } = await openKvBucket(url, `slots-${bucket}`, bucket, { ttlMs, replicas, operationTimeoutMs });
    return new NatsSlotTable(connection, kv);
  }

  async read(group: string): Promise<{ holders: SlotHolders; revision: number | undefined }> {
    const entry = await this.kv.get(kvKey(group));
    if (!entry || entry.operation !== 'PUT') return { holders: {}, revision: undefined };
    return { holders: entry.json<SlotHolders>(), revision: entry.revision };
  }

  async write(group: string, holders: SlotHolders, revision: number | undefined): Promise<boolean> {
    const value = new TextEncoder().encode(JSON.stringify(holders));
    try {
      if (revision === undefined) await this.kv.create(kvKey(group), value);
      else await this.kv.update(kvKey(group), value, revision);
      return true;
    } catch (error) {
      if (isRevisionConflict(error)) return false;
      throw error;
    }
  }

  async close(): Promise<void> {
    await closeNats(this.connection);
  }
}
