// The one way a process connects to NATS: it keeps reconnecting for as long as it runs (the
// client's default gives up after ten tries, leaving revocation notices and rate-limit counters
// dead until a restart after a NATS outage of about 20 s). Without async traces: by default nats.js
// builds two Errors with stack traces for every request (a JetStream publish, a confirmed ack, a KV
// write), only to show where a timed-out one was made; that was 5-15% of the CPU of the processes
// on the cluster's event path, and a timeout's message and code stay the same without it.
import { connect, type NatsConnection } from 'nats';
import { settledWithin } from '../shutdown.js';

export const connectNats = (url: string, name: string): Promise<NatsConnection> =>
  connect({ servers: url, name, maxReconnectAttempts: -1, noAsyncTraces: true });

/**
 * Drains the connection (what its subscriptions received is handled, what it published is
 * flushed), or closes it outright when NATS does not answer within `shutdownWaitMs` (an outage:
 * a reconnecting client would otherwise hold the shutdown).
 */
export async function closeNats(connection: NatsConnection): Promise<void> {
  if (connection.isClosed()) return;
  if (!(await settledWithin(connection.drain()))) await settledWithin(connection.close());
}

/** JetStream's "wrong last sequence" (10071): a key-value create of an existing key, or an update whose revision moved on. */
export const isRevisionConflict = (error: unknown): boolean =>
  (error as { api_error?: { err_code?: number } } | undefined)?.api_error?.err_code === 10071;

/** Whether a NATS server's version (e.g. "2.9.10", from its INFO) is `minimum` or later; an unknown version is not. */
export function natsVersionAtLeast(version: string | undefined, minimum: readonly [number, number, number]): boolean {
  const parts = (version ?? '').split('.').map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < minimum.length; i++) {
    const part = parts[i] ?? 0;
    if (part !== minimum[i]) return part > minimum[i]!;
  }
  return true;
}
