// OAuth endpoints answer errors as {error, error_description} (RFC 6749 5.2), never the API envelope.
import type { Response } from 'express';
import { ConnectError } from '@connectrpc/connect';
import { errorDetailOf } from '@voice/runtime/errors';
import { effectiveCode, mappingOfCode } from '../errors/status-table.js';

export class OAuthError extends Error {
  constructor(readonly error: string, readonly description: string, readonly status = 400, readonly headers: Record<string, string> = {}) {
    super(description);
    this.name = 'OAuthError';
  }
}

/** "a", "a and b", "a, b and c". */
const listed = (names: readonly string[]): string => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/** invalid_request naming every required parameter that is missing (absent or empty), or undefined when none is. */
export function missingParameters(parameters: Record<string, string | undefined>): OAuthError | undefined {
  const missing = Object.keys(parameters).filter((name) => !parameters[name]);
  if (missing.length === 0) return undefined;
  return new OAuthError('invalid_request', `${listed(missing)} ${missing.length === 1 ? 'is' : 'are'} required`);
}

/** invalid_client is 401 (RFC 6749 5.2); everything else a client can fix is 400. */
const statusOf = (error: string): number => (error === 'invalid_client' ? 401 : 400);

/** The OAuth error a failed identity call stands for, or undefined for a platform fault. */
export function oauthErrorOf(error: unknown): OAuthError | undefined {
  if (error instanceof OAuthError) return error;
  if (!(error instanceof ConnectError)) return undefined;
  const detail = errorDetailOf(error);
  if (detail.oauthError) return new OAuthError(detail.oauthError, error.rawMessage, statusOf(detail.oauthError));
  if (detail.reason === 'rate_limited') return new OAuthError('slow_down', error.rawMessage, 429);
  const mapping = mappingOfCode[effectiveCode(error)];
  if (mapping.status === 503) return new OAuthError('temporarily_unavailable', 'the authorization server is temporarily unavailable', 503, { 'Retry-After': '1' });
  return undefined;
}

export function sendOAuthError(res: Response, error: OAuthError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  if (error.error === 'invalid_client') res.setHeader('WWW-Authenticate', 'Basic realm="voice-oauth"');
  res.status(error.status).json({ error: error.error, error_description: error.description });
}
