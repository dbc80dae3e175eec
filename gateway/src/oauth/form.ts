// Form bodies of the OAuth endpoints: application/x-www-form-urlencoded, small, each
// parameter at most once (RFC 6749 3.1).
import express, { type Request, type RequestHandler } from 'express';
import { OAuthError } from './oauth-error.js';

export const parseForm: RequestHandler = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 50 });

export function formOf(req: Request): Record<string, string> {
  if (!req.is('application/x-www-form-urlencoded')) {
    throw new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded');
  }
  const body = (req.body ?? {}) as Record<string, unknown>;
  const form: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    if (typeof value !== 'string') throw new OAuthError('invalid_request', `${name} is sent more than once`);
    form[name] = value;
  }
  return form;
}
