// The one way a process connects to NATS: it keeps reconnecting for as long as it runs (the
// client's default gives up after ten tries, leaving revocation notices and rate-limit counters
// dead until a restart after a NATS outage of about 20 s).
import { connect, type NatsConnection } from 'nats';
import { settledWithin } from '../shutdown.js';

export const connectNats = (url: string, name: string): Promise<NatsConnection> => connect({ servers: url, name, maxReconnectAttempts: -1 });

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
