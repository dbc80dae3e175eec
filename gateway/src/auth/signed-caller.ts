// The signed caller header for a request. Signing is per credential, not per request: one
// signature is reused for half its validity, so most requests skip the HMAC.
import type { Response } from 'express';
import { callerHeader, callerMaxAgeSeconds, requestIdHeader, type CallerSigner } from '@voice/runtime';
import { authOf, type AuthContext } from './auth-context.js';

const reuseMs = (callerMaxAgeSeconds * 1000) / 2;
const signed = new WeakMap<AuthContext, { token: string; signedAt: number }>();

function tokenFor(auth: AuthContext, signer: CallerSigner, now: number): string {
  const kept = signed.get(auth);
  if (kept && now - kept.signedAt < reuseMs) return kept.token;
  const token = signer.sign({ workspaceId: auth.workspace.id, principal: auth.principal, scopes: auth.scopes }, now);
  signed.set(auth, { token, signedAt: now });
  return token;
}

/** Call options for a downstream service, on behalf of this request's authenticated caller. */
export function callOptionsFor(res: Response, signer: CallerSigner) {
  return { headers: { [callerHeader]: tokenFor(authOf(res), signer, Date.now()), [requestIdHeader]: String(res.locals.requestId) } };
}
