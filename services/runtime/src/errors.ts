// Errors a service raises: a public reason (the envelope code), the Connect code that gRPC
// callers see, field violations for the 400 details, the OAuth error code for the OAuth
// endpoints, and a cause that only the logs see.
import { Code, ConnectError } from '@connectrpc/connect';
import { ErrorDetailSchema } from '@voice/proto/voice/common/v1/error';

export const errorReasons = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'revision_conflict',
  'rate_limited',
  'internal_error',
  'telephony_configuration_error',
  'telephony_unavailable',
  'destination_forbidden',
  /** A document or upload larger than allowed: 413, with the envelope code invalid_request. */
  'payload_too_large',
] as const;
export type ErrorReason = (typeof errorReasons)[number];

const connectCodeOf: Record<ErrorReason, Code> = {
  invalid_request: Code.InvalidArgument,
  unauthorized: Code.Unauthenticated,
  forbidden: Code.PermissionDenied,
  not_found: Code.NotFound,
  conflict: Code.FailedPrecondition,
  revision_conflict: Code.Aborted,
  rate_limited: Code.ResourceExhausted,
  internal_error: Code.Internal,
  telephony_configuration_error: Code.FailedPrecondition,
  telephony_unavailable: Code.Unavailable,
  destination_forbidden: Code.PermissionDenied,
  payload_too_large: Code.ResourceExhausted,
};

/** Error codes of RFC 6749, RFC 7591 and RFC 8707 that the OAuth endpoints answer with. */
export const oauthErrorCodes = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'unsupported_response_type',
  'invalid_scope',
  'invalid_redirect_uri',
  'invalid_client_metadata',
  'invalid_target',
  'access_denied',
] as const;
export type OAuthErrorCode = (typeof oauthErrorCodes)[number];

export interface FieldIssue {
  field: string;
  issue: string;
}

export function serviceError(
  reason: ErrorReason,
  message: string,
  options: { fields?: FieldIssue[]; cause?: unknown; oauthError?: OAuthErrorCode; retryAfterSeconds?: number } = {},
): ConnectError {
  return new ConnectError(
    message,
    connectCodeOf[reason],
    undefined,
    [{ desc: ErrorDetailSchema, value: { reason, fieldViolations: options.fields ?? [], oauthError: options.oauthError ?? '', retryAfterSeconds: options.retryAfterSeconds ?? 0 } }],
    options.cause,
  );
}

export const invalidRequest = (fields: FieldIssue[]): ConnectError =>
  serviceError('invalid_request', fields.map((f) => `${f.field}: ${f.issue}`).join('; '), { fields });

export const notFound = (what: string): ConnectError => serviceError('not_found', `${what} not found`);

/** The reason, field violations, OAuth error code and retry delay a ConnectError carries, if a service attached them. */
export function errorDetailOf(error: ConnectError): { reason?: ErrorReason; fields: FieldIssue[]; oauthError?: string; retryAfterSeconds?: number } {
  const [detail] = error.findDetails(ErrorDetailSchema);
  if (!detail) return { fields: [] };
  const reason = (errorReasons as readonly string[]).includes(detail.reason) ? (detail.reason as ErrorReason) : undefined;
  return {
    reason,
    fields: detail.fieldViolations.map(({ field, issue }) => ({ field, issue })),
    oauthError: detail.oauthError || undefined,
    retryAfterSeconds: detail.retryAfterSeconds || undefined,
  };
}
