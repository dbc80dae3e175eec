// The one table that decides HTTP statuses: public error reasons to statuses, and Connect
// codes (from services that attached no reason) to reasons.
import { Code, type ConnectError } from '@connectrpc/connect';
import type { ErrorReason } from '@voice/runtime/errors';

export const statusOfReason: Readonly<Record<ErrorReason, number>> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  revision_conflict: 409,
  rate_limited: 429,
  internal_error: 500,
  telephony_configuration_error: 409,
  destination_forbidden: 403,
  telephony_unavailable: 503,
  payload_too_large: 413,
};

/**
 * The envelope code of a reason, where it is not the reason itself: a body or document too large is
 * 413 with code invalid_request, as a body over 1 MiB is (API.md 1).
 */
export const publicCodeOfReason = (reason: ErrorReason): ErrorReason => (reason === 'payload_too_large' ? 'invalid_request' : reason);

interface Mapping {
  reason: ErrorReason;
  status: number;
  /** Safe to show; replaces the service's message for reasons that must not leak detail. */
  message?: string;
}

const unavailable: Mapping = { reason: 'internal_error', status: 503, message: 'a platform service is temporarily unavailable; retry shortly' };
const internal: Mapping = { reason: 'internal_error', status: 500, message: 'internal error' };

export const mappingOfCode: Readonly<Record<Code, Mapping>> = {
  [Code.Canceled]: unavailable,
  [Code.Unknown]: internal,
  [Code.InvalidArgument]: { reason: 'invalid_request', status: 400 },
  [Code.DeadlineExceeded]: unavailable,
  [Code.NotFound]: { reason: 'not_found', status: 404 },
  [Code.AlreadyExists]: { reason: 'conflict', status: 409 },
  [Code.PermissionDenied]: { reason: 'forbidden', status: 403 },
  [Code.ResourceExhausted]: { reason: 'rate_limited', status: 429 },
  [Code.FailedPrecondition]: { reason: 'conflict', status: 409 },
  [Code.Aborted]: { reason: 'conflict', status: 409 },
  [Code.OutOfRange]: { reason: 'invalid_request', status: 400 },
  [Code.Unimplemented]: internal,
  [Code.Internal]: internal,
  [Code.Unavailable]: unavailable,
  [Code.DataLoss]: internal,
  // A service refusing the gateway's signed caller is a platform fault, never the client's.
  [Code.Unauthenticated]: internal,
};

/** Socket-level failures reaching a service; connect-node reports them as Internal. */
const transportFailures = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/** HTTP/2 refusals of a service that is shutting down: the request never reached a handler. */
const refusedByClosingService = (cause: { code?: unknown; message?: unknown }): boolean =>
  cause.code === 'ERR_HTTP2_GOAWAY_SESSION' ||
  (cause.code === 'ERR_HTTP2_STREAM_ERROR' && typeof cause.message === 'string' && cause.message.includes('REFUSED_STREAM'));

/** The code to map: a service that could not be reached is unavailable, whatever the client library says. */
export function effectiveCode(error: ConnectError): Code {
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (!cause) return error.code;
  return (typeof cause.code === 'string' && transportFailures.has(cause.code)) || refusedByClosingService(cause) ? Code.Unavailable : error.code;
}
