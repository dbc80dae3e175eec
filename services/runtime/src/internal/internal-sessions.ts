// The HTTP/2 sessions every internal client (gateway → service, service → service) uses.
//
// connect-node 2.1.2 checks an idle session with a PING before reusing it ("verify"). When the
// session closes while that PING is out (its idle timeout, or the peer restarting), the request
// either waits forever for a PING answer that was cancelled or spins in a loop that never yields
// (Http2SessionManager.gotoReady), and the whole process stops answering. Seen under the bench
// after a minute of load on other services. So sessions here are never verified: a peer that goes
// away closes or resets the connection, the next request opens a new one, and a peer that vanishes
// silently is bounded by each call's deadline.
//
// Servers end connections that reached their maximum age with GOAWAY; connect-node then opens a
// new session for the next request, but fails the requests the server refused because they
// crossed the GOAWAY. Those are sent again (refused-stream-retry.ts).
import type http2 from 'node:http2';
import { Http2SessionManager } from '@connectrpc/connect-node';
import { RefusedStreamRetry } from './refused-stream-retry.js';

/** The largest timer Node accepts; connect-node ignores larger values, so this means "never". */
const never = 2 ** 31 - 1;

export const internalSessionDefaults = {
  pingIntervalMs: never,
  /** Unused sessions are closed after five minutes; the next call opens a fresh one. */
  idleConnectionTimeoutMs: 5 * 60 * 1000,
} as const;

/**
 * connect-node 2.1.2 answers a GOAWAY on a session without open streams by destroying it with an
 * error, which Node emits on the next tick; when the manager has moved on meanwhile, its listeners
 * are gone and that error is an uncaught exception that ends the process (seen with a 1 s
 * connection age). Every failure of a session already reaches its streams and the manager, so
 * this listener only keeps an orphaned one from crashing the caller.
 */
const guardedSessions = new WeakSet<http2.Http2Session>();
export function guardSession(session: http2.Http2Session | undefined): void {
  if (!session || guardedSessions.has(session)) return;
  guardedSessions.add(session);
  session.on('error', () => {});
}

/** connect-node's session manager, with requests the server refused sent again. */
class InternalSessionManager extends Http2SessionManager {
  override async request(
    method: string,
    path: string,
    headers: http2.OutgoingHttpHeaders,
    options: Omit<http2.ClientSessionRequestOptions, 'signal'>,
  ): Promise<http2.ClientHttp2Stream> {
    const open = async () => {
      const stream = await super.request(method, path, headers, options);
      guardSession(stream.session);
      return stream;
    };
    // The cast is the price of the library's signature: connect-node uses only what the two share.
    return new RefusedStreamRetry(await open(), open) as unknown as http2.ClientHttp2Stream;
  }

  override notifyResponseByteRead(stream: http2.ClientHttp2Stream): void {
    const current = stream instanceof RefusedStreamRetry ? stream.current : stream;
    if (current) super.notifyResponseByteRead(current);
  }
}

export function internalSessionManager(baseUrl: string, options: { idleConnectionTimeoutMs?: number } = {}): Http2SessionManager {
  return new InternalSessionManager(baseUrl, { ...internalSessionDefaults, ...options });
}
