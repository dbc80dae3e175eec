// Window counters in a NATS JetStream key-value bucket, so every replica (of the gateway, of the
// dialer) counts the same hits. Increments are compare-and-set on the entry's revision, so the shared count is
// exact: conflicts are retried, never mistaken for an outage; entries expire with the bucket's TTL.
import type { KV, NatsConnection } from 'nats';
import { closeNats, isRevisionConflict } from '../nats/connection.js';
import { kvKey, openKvBucket } from '../nats/kv.js';
import { PerKeyQueue } from './per-key-queue.js';
import { retryRevisionConflicts, revisionConflict } from './revision-conflicts.js';
import type { WindowCount, WindowCounter } from './window-counter.js';

/** The longest one KV operation of a hit may take. */
const hitTimeoutMs = 1_000;

/**
 * How long a hit keeps retrying conflicts. Beyond it the replicas are contending for one key far
 * harder than a limit allows anyway: the request is counted as over the limit (429, retry in a
 * second), never let through uncounted and never counted in memory, since the bucket works.
 */
const contendedForMs = 5_000;

/** The count of a hit that gave up on a contended key: over any limit. */
const contendedCount = Number.MAX_SAFE_INTEGER;

interface WaitingHit {
  resolve: (count: WindowCount) => void;
  reject: (error: unknown) => void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class NatsWindowCounter implements WindowCounter {
  private constructor(
    private readonly connection: NatsConnection,
    private readonly kv: KV,
    private readonly windowMs: number,
    private readonly clock: () => number,
  ) {}

  /** Writes of one key run one after another in this replica. */
  private readonly perKey = new PerKeyQueue();
  /** Per key, the hits waiting for the key's write in flight to finish: the next write counts them all. */
  private readonly gathering = new Map<string, WaitingHit[]>();

  /** `replicas`: copies of the bucket in a NATS cluster (VOICE_NATS_REPLICAS). */
  static async connect(url: string, bucket: string, windowMs: number, clock: () => number = Date.now, replicas = 1): Promise<NatsWindowCounter> {
    // Requests wait on every hit: while NATS is away a hit fails fast instead of holding them for the client's default 20 s.
    const { connection, kv } = await openKvBucket(url, `counter-${bucket}`, bucket, { ttlMs: windowMs * 2, replicas, operationTimeoutMs: hitTimeoutMs });
    return new NatsWindowCounter(connection, kv, windowMs, clock);
  }

  /**
   * Requests of one account do not race each other for the same revision (conflicts come only from
   * other replicas), and those that arrive while the key's write is in flight share the next one: a
   * read and a write per batch rather than per request, which had capped one busy key at one
   * request per two NATS round trips. Each hit still gets its own count, in the order they came.
   */
  hit(key: string): Promise<WindowCount> {
    return new Promise((resolve, reject) => {
      const waiting = this.gathering.get(key);
      if (waiting) {
        waiting.push({ resolve, reject });
        return;
      }
      const batch: WaitingHit[] = [{ resolve, reject }];
      this.gathering.set(key, batch);
      this.perKey
        .run(key, () => {
          // From here on the batch is closed: later hits gather for the write after this one.
          this.gathering.delete(key);
          return this.increment(key, batch.length);
        })
        .then(
          ({ count, resetAt }) => batch.forEach((hit, i) => hit.resolve({ count: count === contendedCount ? count : count - batch.length + 1 + i, resetAt })),
          (error: unknown) => batch.forEach((hit) => hit.reject(error)),
        );
    });
  }

  /**
   * Adds `hits` to the key's count in the current window and answers the new total. A
   * compare-and-set conflict (another replica counted first) is read again and retried: it says the
   * bucket works. Only a failure of NATS itself (a timeout, no responders) is thrown, which is what
   * makes the caller count in memory.
   */
  private async increment(key: string, hits: number): Promise<WindowCount> {
    const now = this.clock();
    const windowStart = now - (now % this.windowMs);
    const resetAt = windowStart + this.windowMs;
    const entryKey = `${kvKey(key)}.${windowStart}`;
    return retryRevisionConflicts(
      async () => {
        const entry = await this.kv.get(entryKey);
        try {
          if (!entry || entry.operation !== 'PUT') {
            await this.kv.create(entryKey, encoder.encode(String(hits)));
            return { count: hits, resetAt };
          }
          const count = Number(decoder.decode(entry.value)) + hits;
          await this.kv.update(entryKey, encoder.encode(String(count)), entry.revision);
          return { count, resetAt };
        } catch (error) {
          if (!isRevisionConflict(error)) throw error;
          return revisionConflict;
        }
      },
      contendedForMs,
      () => ({ count: contendedCount, resetAt: Math.min(resetAt, this.clock() + 1_000) }),
    );
  }

  async close(): Promise<void> {
    await closeNats(this.connection);
  }
}
