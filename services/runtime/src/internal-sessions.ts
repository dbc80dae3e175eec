// The HTTP/2 sessions every internal client (gateway → service, service → service) uses.
//
// connect-node 2.1.2 checks an idle session with a PING before reusing it ("verify"). When the
// session closes while that PING is out (its idle timeout, or the peer restarting), the request
// either waits forever for a PING answer that was cancelled or spins in a loop that never yields
// (Http2SessionManager.gotoReady), and the whole process stops answering. Seen under the bench
// after a minute of load on other services. So sessions here are never verified: a peer that goes
// away closes or resets the connection, the next request opens a new one, and a peer that vanishes
// silently is bounded by each call's deadline.
import { Http2SessionManager } from '@connectrpc/connect-node';

/** The largest timer Node accepts; connect-node ignores larger values, so this means "never". */
const never = 2 ** 31 - 1;

export const internalSessionDefaults = {
  pingIntervalMs: never,
  /** Unused sessions are closed after five minutes; the next call opens a fresh one. */
  idleConnectionTimeoutMs: 5 * 60 * 1000,
} as const;

export function internalSessionManager(baseUrl: string, options: { idleConnectionTimeoutMs?: number } = {}): Http2SessionManager {
  return new Http2SessionManager(baseUrl, { ...internalSessionDefaults, ...options });
}
