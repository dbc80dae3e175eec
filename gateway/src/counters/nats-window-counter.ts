// Window counters in a NATS JetStream key-value bucket, so every gateway replica counts the
// same requests. Increments are compare-and-set on the entry's revision; entries expire with
// the bucket's TTL.
import type { KV, NatsConnection } from 'nats';
import { connectNats } from '@voice/runtime/nats';
import type { WindowCount, WindowCounter } from './window-counter.js';

/** The longest one KV operation of a hit may take. */
const hitTimeoutMs = 1_000;

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

  /** `replicas`: copies of the bucket in a NATS cluster (VOICE_NATS_REPLICAS). */
  static async connect(url: string, bucket: string, windowMs: number, clock: () => number = Date.now, replicas = 1): Promise<NatsWindowCounter> {
    const connection = await connectNats(url, `gateway-${bucket}`);
    await connection.jetstream().views.kv(bucket, { history: 1, ttl: windowMs * 2, replicas });
    // Requests wait on every hit: while NATS is away a hit fails fast instead of holding them for the client's default 20 s.
    const kv = await connection.jetstream({ timeout: hitTimeoutMs }).views.kv(bucket, { bindOnly: true });
    return new NatsWindowCounter(connection, kv, windowMs, clock);
  }

  async hit(key: string): Promise<WindowCount> {
    const now = this.clock();
    const windowStart = now - (now % this.windowMs);
    const entryKey = `${safeKey(key)}.${windowStart}`;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const entry = await this.kv.get(entryKey);
      try {
        if (!entry || entry.operation !== 'PUT') {
          await this.kv.create(entryKey, encoder.encode('1'));
          return { count: 1, resetAt: windowStart + this.windowMs };
        }
        const count = Number(decoder.decode(entry.value)) + 1;
        await this.kv.update(entryKey, encoder.encode(String(count)), entry.revision);
        return { count, resetAt: windowStart + this.windowMs };
      } catch {
        // Another replica changed the entry first; read it again.
      }
    }
    throw new Error('rate-limit counter kept changing under contention');
  }

  async close(): Promise<void> {
    await this.connection.drain();
  }
}
