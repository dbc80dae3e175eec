// What can go wrong with one HTTP exchange with a carrier, and the two decisions that follow from
// it: may the request be sent again, and does it say the carrier is down.
import { networkErrorCodes, type RequestFailed } from '@voice/runtime/egress';

export type HttpFailure =
  /** No connection was made, so nothing reached the carrier. */
  | { kind: 'not_connected' }
  /** The connection broke after it was made, before a complete answer arrived. */
  | { kind: 'connection_lost' }
  | { kind: 'timeout' }
  /** An answer that could not be read as HTTP. */
  | { kind: 'invalid_response' }
  /** 429 or 5xx. */
  | { kind: 'status'; status: number };

/** Errors Node reports while resolving or connecting, before any byte of the request is written. */
const notConnectedCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

export function transportFailure(error: RequestFailed): HttpFailure {
  switch (error.code) {
    case 'timeout':
      return { kind: 'timeout' };
    case 'bad_response':
      return { kind: 'invalid_response' };
    // The name was not resolved, or the handshake failed: no byte of the request was sent.
    case 'dns_error':
    case 'tls_error':
      return { kind: 'not_connected' };
    case 'unreachable': {
      const codes = networkErrorCodes(error.cause);
      return codes.length > 0 && codes.every((code) => notConnectedCodes.has(code)) ? { kind: 'not_connected' } : { kind: 'connection_lost' };
    }
  }
}

/** The failure a response status stands for, or undefined when the carrier answered (1xx-4xx other than 429). */
export function statusFailure(status: number): HttpFailure | undefined {
  return status === 429 || status >= 500 ? { kind: 'status', status } : undefined;
}

const notProcessedStatuses = new Set([429, 502, 503, 504]);

/**
 * Whether sending the request again cannot duplicate a side effect. It cannot when nothing reached
 * the carrier, when the carrier's answer says it did not process the request (429 rate limiting;
 * 502/503/504 from its edge), or when the request has no side effect to duplicate (GET, DELETE).
 * A timeout, a dropped connection or a 500 on a POST leave open whether the carrier already sent
 * the message or bought the number, and a second POST could do it twice: those are not retried.
 */
export function isRetrySafe(failure: HttpFailure, idempotent: boolean): boolean {
  if (idempotent || failure.kind === 'not_connected') return true;
  return failure.kind === 'status' && notProcessedStatuses.has(failure.status);
}

/** Whether the failure says the carrier is down (what opens the circuit); rate limiting says it is up. */
export function isOutage(failure: HttpFailure): boolean {
  return !(failure.kind === 'status' && failure.status === 429);
}
