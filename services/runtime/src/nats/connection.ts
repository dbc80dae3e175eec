// The one way a process connects to NATS: it keeps reconnecting for as long as it runs (the
// client's default gives up after ten tries, leaving revocation notices and rate-limit counters
// dead until a restart after a NATS outage of about 20 s).
import { connect, type NatsConnection } from 'nats';

export const connectNats = (url: string, name: string): Promise<NatsConnection> => connect({ servers: url, name, maxReconnectAttempts: -1 });
