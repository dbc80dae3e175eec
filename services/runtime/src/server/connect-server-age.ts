// The maximum age of a server connection (gRPC's MAX_CONNECTION_AGE and _GRACE): callers keep one
// HTTP/2 connection per service and a Kubernetes Service balances connections, not calls, so
// without an end to each connection the replicas added by a scale-up would get no traffic.
import type http2 from 'node:http2';
import type { Logger } from '../logger.js';

/** How long a connection lives before GOAWAY, and how long its calls then get to finish. */
export interface ConnectionAgeLimit {
  maxAgeMs: number;
  graceMs: number;
}

export type ConnectionAge = ConnectionAgeLimit | 'off';

export const defaultConnectionAge: ConnectionAgeLimit = { maxAgeMs: 300_000, graceMs: 30_000 };

/** ±10%, so callers that connected together do not all reconnect together. */
const jitter = 0.1;

/**
 * Ends every session of `server` once it has lived for its (jittered) maximum age: a GOAWAY that
 * lets its calls finish and sends new ones to a new connection, then, after the grace period, the
 * end of the calls still running. The timers never keep the process alive and go with the session.
 */
export function limitConnectionAge(server: http2.Http2Server, age: ConnectionAge, logger: Logger): void {
  if (age === 'off') return;
  server.on('session', (session: http2.ServerHttp2Session) => {
    let grace: NodeJS.Timeout | undefined;
    const lifetime = setTimeout(() => {
      // close() sends GOAWAY with the last stream it accepted; Node destroys the session as soon
      // as no stream is left, so the grace timer only fires for calls still running.
      session.close();
      grace = setTimeout(() => {
        logger.warn('connection outlived its grace period after reaching its maximum age; its calls are cut', { grace_ms: age.graceMs });
        session.destroy();
      }, age.graceMs).unref();
    }, age.maxAgeMs * (1 - jitter + 2 * jitter * Math.random())).unref();
    session.once('close', () => {
      clearTimeout(lifetime);
      clearTimeout(grace);
    });
  });
}
