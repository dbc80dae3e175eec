// JetStream key-value buckets as the runtime's shared state uses them (job leases, window counters,
// concurrency slots): how a bucket is opened and how a key is made one the bucket can hold.
import type { KV, NatsConnection } from 'nats';
import { connectNats } from './connection.js';

export interface KvBucketOptions {
  /** Entries untouched this long leave the bucket. */
  ttlMs: number;
  /** Copies of the bucket in a NATS cluster (VOICE_NATS_REPLICAS). */
  replicas: number;
  /** The longest one operation on the bucket may take, rather than the client's default 20 s. */
  operationTimeoutMs: number;
}

/**
 * Connects and opens `bucket` (created when missing, keeping only each key's latest value): its own
 * connection, which the caller closes. A failure to open closes the connection, so a process that
 * retries or goes on without the bucket does not leave one reconnecting forever.
 */
export async function openKvBucket(url: string, connectionName: string, bucket: string, options: KvBucketOptions): Promise<{ connection: NatsConnection; kv: KV }> {
  const connection = await connectNats(url, connectionName);
  try {
    await connection.jetstream().views.kv(bucket, { history: 1, ttl: options.ttlMs, replicas: options.replicas });
    // Created with the default timeout; bound again so every later operation has the short one.
    const kv = await connection.jetstream({ timeout: options.operationTimeoutMs }).views.kv(bucket, { bindOnly: true });
    return { connection, kv };
  } catch (error) {
    await connection.close();
    throw error;
  }
}

/** KV keys allow only [-/_=.a-zA-Z0-9]. */
const kvKeyCharacters = /^[-/_=.a-zA-Z0-9]+$/;
const notKvKeyCharacter = /[^-/_=.a-zA-Z0-9]/g;

/** A key the bucket can hold: kept when it is one already, otherwise hex-encoded whole (IPv6 colons), so two keys never become one. */
export const kvKey = (key: string): string => (kvKeyCharacters.test(key) ? key : Buffer.from(key).toString('hex'));

/**
 * The job leases' rule: each character a key cannot hold becomes '_'. Job names are the code's own and
 * never differ only in such characters; the leases keep this rule so the entries they hold keep their keys.
 */
export const kvKeyReplacing = (key: string): string => key.replace(notKvKeyCharacter, '_');
