// Who is calling a service. Services trust only this signed context, set by the gateway (or
// another service) with the shared internal secret; nothing in a public request can forge it.
import { createHmac } from 'node:crypto';
import { createContextKey, type HandlerContext } from '@connectrpc/connect';
import { constantTimeEqual } from './crypto.js';
import { serviceError } from './errors.js';
import type { GrantedScopes } from './scopes.js';

export const callerHeader = 'x-voice-caller';
export const requestIdHeader = 'x-request-id';

export interface Principal {
  /** service_account and user come from public credentials; internal is another part of the platform. */
  type: 'service_account' | 'user' | 'internal';
  id: string;
  name: string;
}

export interface Caller {
  /** Empty for internal calls made outside any workspace (the gateway authenticating a credential). */
  workspaceId: string;
  principal: Principal;
  scopes: GrantedScopes;
  requestId: string;
}

/** Signed callers are accepted this long after signing; it bounds replay of a captured header. */
const maxAgeSeconds = 120;

interface SignedPayload extends Caller {
  iat: number;
}

export class CallerSigner {
  constructor(private readonly secret: Buffer) {}

  sign(caller: Caller, now = Date.now()): string {
    const payload: SignedPayload = { ...caller, iat: Math.floor(now / 1000) };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  verify(token: string | null, now = Date.now()): Caller | undefined {
    if (!token) return undefined;
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
    const age = Math.floor(now / 1000) - payload.iat;
    if (!(age >= -maxAgeSeconds && age <= maxAgeSeconds)) return undefined;
    const { iat: _signedAt, ...caller } = payload;
    return caller;
  }

  private mac(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}

export const callerKey = createContextKey<Caller | undefined>(undefined, { description: 'signed caller' });

export function callerOf(context: HandlerContext): Caller {
  const caller = context.values.get(callerKey);
  if (!caller) throw serviceError('unauthorized', 'the call carries no signed caller');
  return caller;
}

/** The caller of a workspace-scoped operation; internal callers must name the workspace too. */
export function workspaceCallerOf(context: HandlerContext): Caller & { workspaceId: string } {
  const caller = callerOf(context);
  if (!caller.workspaceId) throw serviceError('unauthorized', 'the call names no workspace');
  return caller;
}

/** Headers for an outgoing internal call on behalf of `caller`. */
export function callHeaders(signer: CallerSigner, caller: Caller): Record<string, string> {
  return { [callerHeader]: signer.sign(caller), [requestIdHeader]: caller.requestId };
}
