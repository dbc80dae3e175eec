// Who this service is when it calls identity and billing: an internal principal, naming the
// workspace the call is about (the platform's, or one of its users').
import { callHeaders, type CallerSigner } from '@voice/runtime/caller';

export interface OnBehalfOf {
  workspaceId: string;
  /** The request id of the call being served, for the logs of every hop. */
  requestId: string;
}

const principal = { type: 'internal' as const, id: 'platform-users', name: 'platform-users' };

export const internalCallOptions = (signer: CallerSigner, on: OnBehalfOf) => ({
  headers: callHeaders(signer, { workspaceId: on.workspaceId, principal, scopes: null, requestId: on.requestId }),
});
