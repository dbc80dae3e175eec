// The signed caller header for a call to a service. Signing is per credential (or, for the
// gateway's own calls, per gateway), not per request: one signature is reused for half its
// validity, so most requests skip the HMAC.
import type { Response } from 'express';
import {
  callerHeader,
  callerMaxAgeSeconds,
  requestIdHeader,
  type CallerIdentity,
  type CallerSigner,
} from '@voice/runtime/caller';
import type { AuthContext } from './auth-context.js';

const reuseMs = (callerMaxAgeSeconds * 1000) / 2;
const signed = new WeakMap<object, { token: string; signedAt: number }>();

/** The signature kept for `owner`, or a new one of `identity` when it is missing or half expired. */
function tokenFor(owner: object, identity: () => CallerIdentity, signer: CallerSigner, now: number): string {
  const kept = signed.get(owner);
  if (kept && now - kept.signedAt < reuseMs) return kept.token;
  const token = signer.sign(identity(), now);
  signed.set(owner, { token, signedAt: now });
  return token;
}

const optionsWith = (token: string, requestId: string) => ({ headers: { [callerHeader]: token, [requestIdHeader]: requestId } });

/** Call options for a downstream service, on behalf of an authenticated caller. */
export function callOptionsOf(auth: AuthContext, requestId: string, signer: CallerSigner) {
  const identity = () => ({ workspaceId: auth.workspace.id, principal: auth.principal, scopes: auth.scopes });
  return optionsWith(tokenFor(auth, identity, signer, Date.now()), requestId);
}

const gateway: CallerIdentity = { workspaceId: '', principal: { type: 'internal', id: 'gateway', name: 'gateway' }, scopes: null };

/** Call options for a call the gateway makes itself, outside any workspace (authentication, OAuth). */
export function gatewayCallOptions(res: Response, signer: CallerSigner) {
  return gatewayCallOptionsFor(String(res.locals.requestId), signer);
}

/** The same, for work outside a handler that still knows its request id (the tenant lookup). */
export function gatewayCallOptionsFor(requestId: string, signer: CallerSigner) {
  return optionsWith(tokenFor(signer, () => gateway, signer, Date.now()), requestId);
}
