// OAuth errors: the RFC error code travels in ErrorDetail.oauth_error, the envelope reason is
// invalid_request, or unauthorized when a client failed to authenticate at the token endpoint.
import { ConnectError } from '@connectrpc/connect';
import { errorDetailOf, serviceError, type FieldIssue, type OAuthErrorCode } from '@voice/runtime/errors';

export const oauthError = (code: OAuthErrorCode, message: string, fields: FieldIssue[] = []): ConnectError =>
  serviceError('invalid_request', message, { oauthError: code, fields });

export const clientAuthenticationFailed = (message: string): ConnectError =>
  serviceError('unauthorized', message, { oauthError: 'invalid_client' });

/** One message for every unusable code or refresh token, so none of them tells why. */
export const invalidGrant = (what: 'authorization code' | 'refresh token'): ConnectError =>
  oauthError('invalid_grant', `the ${what} is invalid, expired, revoked or was already used`);

/**
 * The field violation every CheckAuthorizationRequest error carries: issue "true" when the error
 * may be sent to redirect_uri, "false" when the page must show it and never redirect.
 */
export const redirectUriTrustedField = 'redirect_uri_trusted';

/** The error with the redirect_uri_trusted field violation added; other failures pass through. */
export function withRedirectTrust(error: unknown, trusted: boolean): unknown {
  if (!(error instanceof ConnectError)) return error;
  const detail = errorDetailOf(error);
  if (!detail.reason) return error;
  const fields = [...detail.fields.filter((f) => f.field !== redirectUriTrustedField), { field: redirectUriTrustedField, issue: String(trusted) }];
  return serviceError(detail.reason, error.rawMessage, { fields, oauthError: detail.oauthError as OAuthErrorCode | undefined, cause: error.cause });
}
