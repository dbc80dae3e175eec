// The Connect clients of identity and billing (over internal HTTP/2 sessions, or in process in the
// single-process mode), closed with the service.
import { createClient } from '@connectrpc/connect';
import { BillingService } from '@voice/proto/voice/billing/v1/billing';
import { IdentityService } from '@voice/proto/voice/identity/v1/identity';
import type { CallerSigner } from '@voice/runtime/caller';
import { openInternalChannel, type InProcessServices } from '@voice/runtime/internal';
import { BillingCalls } from './billing.js';
import { IdentityCalls } from './identity.js';

/** Bounds every call, so a peer that vanishes silently fails the request instead of holding it. */
const callTimeoutMs = 10_000;

export interface Downstreams {
  identity: IdentityCalls;
  billing: BillingCalls;
  close(): void;
}

export function connectDownstreams(urls: { identity: string; billing: string }, signer: CallerSigner, local?: InProcessServices): Downstreams {
  const identity = openInternalChannel({ name: 'identity', url: urls.identity, defaultTimeoutMs: callTimeoutMs }, local);
  const billing = openInternalChannel({ name: 'billing', url: urls.billing, defaultTimeoutMs: callTimeoutMs }, local);
  return {
    identity: new IdentityCalls(createClient(IdentityService, identity.transport), signer),
    billing: new BillingCalls(createClient(BillingService, billing.transport), signer),
    close: () => {
      identity.close();
      billing.close();
    },
  };
}
