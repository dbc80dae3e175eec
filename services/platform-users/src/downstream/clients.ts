// The Connect clients of identity and billing, on internal HTTP/2 sessions (never verified by
// PING: see internalSessionManager), closed with the service.
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { BillingService } from '@voice/proto/voice/billing/v1/billing';
import { IdentityService } from '@voice/proto/voice/identity/v1/identity';
import { internalSessionManager, type CallerSigner } from '@voice/runtime';
import { BillingCalls } from './billing.js';
import { IdentityCalls } from './identity.js';

/** Bounds every call, so a peer that vanishes silently fails the request instead of holding it. */
const callTimeoutMs = 10_000;

export interface Downstreams {
  identity: IdentityCalls;
  billing: BillingCalls;
  close(): void;
}

export function connectDownstreams(urls: { identity: string; billing: string }, signer: CallerSigner): Downstreams {
  const transport = (baseUrl: string) => {
    const sessionManager = internalSessionManager(baseUrl);
    return {
      sessionManager,
      transport: createConnectTransport({ baseUrl, httpVersion: '2', useBinaryFormat: true, defaultTimeoutMs: callTimeoutMs, sessionManager }),
    };
  };
  const identity = transport(urls.identity);
  const billing = transport(urls.billing);
  return {
    identity: new IdentityCalls(createClient(IdentityService, identity.transport), signer),
    billing: new BillingCalls(createClient(BillingService, billing.transport), signer),
    close: () => {
      identity.sessionManager.abort();
      billing.sessionManager.abort();
    },
  };
}
