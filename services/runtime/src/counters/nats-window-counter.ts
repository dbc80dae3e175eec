// Window counters in a NATS JetStream key-value bucket, so every replica (of the gateway, of the
// dialer) counts the same hits. Increments are compare-and-set on the entry's revision, so the shared count is
// exact: conflicts are retried, never mistaken for an outage; entries expire with the bucket's TTL.
import type { KV, NatsConnection } from 'nats';
import { closeNats, connectNats, isRevisionConflict } from '../nats/index.js';
import type { WindowCount, WindowCounter } from './window-counter.js';

/** The longest one KV operation of a hit may take. */
const hitTimeoutMs = 1_000;

/**
 * How long a hit keeps retrying conflicts. Beyond it the replicas are contending for one key far
 * harder than a limit allows anyway: the request is counted as over the limit (429, retry in a
 * second), never let through uncounted and never counted in memory, since the bucket works.
 */
const contendedForMs = 5_000;
const maxBackoffMs = 20;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** KV keys allow only [-/_=.a-zA-Z0-9]; anything else (IPv6 colons) is hex-encoded. */
const safeKey = (key: string): string => (/^[-/_=.a-zA-Z0-9]+$/.test(key) ? key : Buffer.from(key).toString('hex'));

export class NatsWindowCounter implements WindowCounter {
  private constructor(
    private readonly connection: NatsConnection,
    private readonly kv: KV,
    private readonly windowMs: number,
    private readonly clock: () => number,
  ) {}

  /** Per key, the hit of this replica that is updating it (hits of one key run one after another). */
  private readonly inFlight = new Map<string, Promise<void>>();

  /** `replicas`: copies of the bucket in a NATS cluster (VOICE_NATS_REPLICAS). */
  static async connect(url: string, bucket: string, windowMs: number, clock: () => number = Date.now, replicas = 1): Promise<NatsWindowCounter> {
    const connection = await connectNats(url, `counter-${bucket}`);
    await connection.jetstream().views.kv(bucket, { history: 1, ttl: windowMs * 2, replicas });
    // Requests wait on every hit: while NATS is away a hit fails fast instead of holding them for the client's default 20 s.
    const kv = await connection.jetstream({ timeout: hitTimeoutMs }).views.kv(bucket, { bindOnly: true });
    return new NatsWindowCounter(connection, kv, windowMs, clock);
  }

  async hit(key: string): Promise<WindowCount> {
    // One update at a time per key in this replica: requests of one account do not race each other
    // for the same revision, so compare-and-set conflicts come only from other replicas.
    const previous = this.inFlight.get(key) ?? Promise.resolve();
    const hit = previous.then(() => this.increment(key));
    const settled = hit.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.set(key, settled);
    void settled.then(() => {
      if (this.inFlight.get(key) === settled) this.inFlight.delete(key);
    });
    return hit;
  }

  /**
   * Adds one to the key's count in the current window. A compare-and-set conflict (another replica
   * counted first) is read again and retried: it says the bucket works. Only a failure of NATS
   * itself (a timeout, no responders) is thrown, which is what makes the caller count in memory.
   */
  private async increment(key: string): Promise<WindowCount> {
    const now = this.clock();
    const windowStart = now - (now % this.windowMs);
    const resetAt = windowStart + this.windowMs;
    const entryKey = `${safeKey(key)}.${windowStart}`;
    const giveUpAt = performance.now() + contendedForMs;
    for (let attempt = 0; ; attempt += 1) {
      const entry = await this.kv.get(entryKey);
      try {
        if (!entry || entry.operation !== 'PUT') {
          await this.kv.create(entryKey, encoder.encode('1'));
          return { count: 1, resetAt };
        }
        const count = Number(decoder.decode(entry.value)) + 1;
        await this.kv.update(entryKey, encoder.encode(String(count)), entry.revision);
        return { count, resetAt };
      } catch (error) {
        if (!isRevisionConflict(error)) throw error;
      }
      // Replicas that keep colliding back off, each by a random share, so one of them wins the next round.
      if (performance.now() >= giveUpAt) return { count: Number.MAX_SAFE_INTEGER, resetAt: Math.min(resetAt, this.clock() + 1_000) };
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(maxBackoffMs, 2 ** attempt)));
    }
  }

  async close(): Promise<void> {
    await closeNats(this.connection);
  }
}
