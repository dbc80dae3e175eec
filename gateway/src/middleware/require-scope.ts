// Route scopes: the credential must hold the scope (a *:write scope covers its *:read).
import type { RequestHandler } from 'express';
import { hasScope } from '@voice/runtime';
import { authOf } from '../auth/auth-context.js';
import { HttpError } from '../errors/http-error.js';

/** Passes when any one of `scopes` is held (legacy alternatives such as calls:* for automations). */
export const requireScope = (...scopes: string[]): RequestHandler => {
  if (scopes.length === 0) throw new Error('requireScope needs at least one scope');
  return (_req, res, next) => {
    const granted = authOf(res).scopes;
    if (scopes.some((scope) => hasScope(granted, scope))) return next();
    next(
      new HttpError('forbidden', `this credential lacks the ${scopes.join(' or ')} scope`, {
        headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scopes[0]}"` },
      }),
    );
  };
};
