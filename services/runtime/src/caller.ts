// Who is calling a service. Services trust only this signed context, set by the gateway (or
// another service) with the shared internal secret; nothing in a public request can forge it.
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { createContextKey, type HandlerContext } from '@connectrpc/connect';
import { constantTimeEqual } from './crypto.js';
import { serviceError } from './errors.js';
import type { GrantedScopes } from './access/scopes.js';

export const callerHeader = 'x-voice-caller';
export const requestIdHeader = 'x-request-id';

export interface Principal {
  /** service_account and user come from public credentials; internal is another part of the platform. */
  type: 'service_account' | 'user' | 'internal';
  id: string;
  name: string;
}

/** Who makes a call: what the signature covers. */
export interface CallerIdentity {
  /** Empty for internal calls made outside any workspace (the gateway authenticating a credential). */
  workspaceId: string;
  principal: Principal;
  scopes: GrantedScopes;
}

export interface Caller extends CallerIdentity {
  /** Travels beside the signature (x-request-id), for logs only. */
  requestId: string;
}

/** Signed callers are accepted this long after signing; it bounds replay of a captured header. */
export const callerMaxAgeSeconds = 120;

interface SignedPayload extends CallerIdentity {
  iat: number;
}

export class CallerSigner {
  /** Tokens already verified, so a repeated token costs a lookup instead of a MAC and a parse. */
  private readonly verified = new Map<string, SignedPayload>();
  /** Imported once: HMAC with a raw Buffer key imports the key on every call (~6 times the MAC's cost). */
  private readonly key: KeyObject;

  constructor(secret: Buffer, private readonly maxVerified = 10_000) {
    this.key = createSecretKey(secret);
  }

  /** A token depends only on its payload: one caller signed again within a second gets the same one, which its receiver finds among those it verified. */
  sign(identity: CallerIdentity, now = Date.now()): string {
    const payload: SignedPayload = { workspaceId: identity.workspaceId, principal: identity.principal, scopes: identity.scopes, iat: Math.floor(now / 1000) };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  verify(token: string | null, requestId: string, now = Date.now()): Caller | undefined {
    if (!token) return undefined;
    const payload = this.verified.get(token) ?? this.check(token);
    if (!payload) return undefined;
    const age = Math.floor(now / 1000) - payload.iat;
    if (!(age >= -callerMaxAgeSeconds && age <= callerMaxAgeSeconds)) return undefined;
    return { workspaceId: payload.workspaceId, principal: payload.principal, scopes: payload.scopes, requestId };
  }

  private check(token: string): SignedPayload | undefined {
    const dot = token.indexOf('.');
    if (dot <= 0) return undefined;
    const body = token.slice(0, dot);
    if (!constantTimeEqual(token.slice(dot + 1), this.mac(body))) return undefined;
    let payload: SignedPayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SignedPayload;
    } catch {
      return undefined;
    }
    if (typeof payload.iat !== 'number') return undefined;
    if (this.verified.size >= this.maxVerified) this.verified.clear();
    this.verified.set(token, payload);
    return payload;
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

export const callerKey = createContextKey<Caller | undefined>(undefined, { description: 'signed caller' });

export function callerOf(context: HandlerContext): Caller {
  const caller = context.values.get(callerKey);
  if (!caller) throw serviceError('unauthorized', 'the call carries no signed caller');
  return caller;
}

/** A caller acting in a workspace: what workspace-scoped use cases take. */
export type WorkspaceCaller = Caller & { workspaceId: string };

/** The caller of a workspace-scoped operation; internal callers must name the workspace too. */
export function workspaceCallerOf(context: HandlerContext): WorkspaceCaller {
  const caller = callerOf(context);
  if (!caller.workspaceId) throw serviceError('unauthorized', 'the call names no workspace');
  return caller;
}

/** The caller of an operation only other parts of the platform may call, never a public credential. */
export function internalCallerOf(context: HandlerContext, refusal = 'only platform services may call this'): Caller {
  const caller = callerOf(context);
  if (caller.principal.type !== 'internal') throw serviceError('forbidden', refusal);
  return caller;
}

/** An internal caller of a request that names its workspace: one signed for another workspace is refused (one signed for none acts for any). */
export function internalCallerFor(context: HandlerContext, workspaceId: string, refusal?: string): Caller {
  const caller = internalCallerOf(context, refusal);
  if (caller.workspaceId !== '' && caller.workspaceId !== workspaceId) throw serviceError('forbidden', 'the request names another workspace than its caller');
  return caller;
}

/** A platform service calling another as itself, in a workspace ('' for none), under a request's id. */
export const serviceCaller = (service: string, workspaceId: string, requestId: string): Caller => ({
  workspaceId,
  principal: { type: 'internal', id: service, name: service },
  scopes: null,
  requestId,
});

/** Headers for an outgoing internal call on behalf of `caller`. */
export function callHeaders(signer: CallerSigner, caller: Caller): Record<string, string> {
  return { [callerHeader]: signer.sign(caller), [requestIdHeader]: caller.requestId };
}
