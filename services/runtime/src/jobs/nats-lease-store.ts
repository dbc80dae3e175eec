// Job leases in a NATS JetStream key-value bucket shared by every replica: create and update are
// compare-and-set on the entry's revision (the server refuses a stale one). The bucket's TTL only
// clears leases of jobs nobody runs any more; a lease's own expiry is in its value.
import type { KV, NatsConnection } from 'nats';
import { closeNats, isRevisionConflict } from '../nats/connection.js';
import { kvKeyReplacing, openKvBucket } from '../nats/kv.js';
import { decodeLease, encodeLease, type LeaseRecord, type LeaseStore, type StoredLease } from './lease-store.js';

/** The bucket's name before the event namespace's prefix. */
export const jobLeaseBucket = 'voice_job_leases';

/** A lease operation fails after this rather than holding a run or a shutdown for the client's default 20 s. */
const operationTimeoutMs = 2_000;

/** Entries untouched this long (jobs no replica runs any more) leave the bucket. */
const bucketTtlMs = 7 * 24 * 60 * 60 * 1000;

export class NatsLeaseStore implements LeaseStore {
  private constructor(
    private readonly connection: NatsConnection,
    private readonly kv: KV,
  ) {}

  /** `bucket` is the namespaced bucket name; `replicas` its copies in a NATS cluster. */
  static async connect(url: string, bucket: string, name: string, replicas = 1): Promise<NatsLeaseStore> {
    const { connection, kv } = await openKvBucket(url, name, bucket, { ttlMs: bucketTtlMs, replicas, operationTimeoutMs });
    return new NatsLeaseStore(connection, kv);
  }

  async read(job: string): Promise<StoredLease | undefined> {
    const entry = await this.kv.get(kvKeyReplacing(job));
    if (!entry || entry.operation !== 'PUT') return undefined;
    // An unreadable value is an expired lease at this revision: whoever replaces it first takes it.
    return { record: decodeLease(entry.value) ?? { holder: '', expiresAt: 0 }, revision: entry.revision };
  }

  async create(job: string, record: LeaseRecord): Promise<number | undefined> {
    try {
      return await this.kv.create(kvKeyReplacing(job), encodeLease(record));
    } catch (error) {
      if (isRevisionConflict(error)) return undefined;
      throw error;
    }
  }

  async replace(job: string, record: LeaseRecord, revision: number): Promise<number | undefined> {
    try {
      return await this.kv.update(kvKeyReplacing(job), encodeLease(record), revision);
    } catch (error) {
      if (isRevisionConflict(error)) return undefined;
      throw error;
    }
  }

  async close(): Promise<void> {
    await closeNats(this.connection);
  }
}
