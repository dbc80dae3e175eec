// Route scopes: the credential must hold the scope (a *:write scope covers its *:read).
import type { RequestHandler } from 'express';
import { hasScope } from '@voice/runtime/access';
import { authOf, type AuthContext } from '../auth/auth-context.js';
import { HttpError } from '../errors/http-error.js';

/** The refusal when none of `scopes` is held (legacy alternatives such as calls:* for automations), else undefined. */
export function scopeRefusal(auth: AuthContext, scopes: readonly string[]): HttpError | undefined {
  if (scopes.some((scope) => hasScope(auth.scopes, scope))) return undefined;
  return new HttpError('forbidden', `this credential lacks the ${scopes.join(' or ')} scope`, {
    headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scopes[0]}"` },
  });
}

export const requireScope = (...scopes: string[]): RequestHandler => {
  if (scopes.length === 0) throw new Error('requireScope needs at least one scope');
  return (_req, res, next) => next(scopeRefusal(authOf(res), scopes));
};
