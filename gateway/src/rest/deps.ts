// What REST route modules need, and the signed call options for a request's caller.
import type { Response } from 'express';
import { callHeaders, type CallerSigner } from '@voice/runtime';
import { callerOf } from '../auth/auth-context.js';
import type { CredentialCache } from '../auth/credential-cache.js';
import type { ServiceClients } from '../clients.js';

export interface RestDeps {
  clients: ServiceClients;
  signer: CallerSigner;
  cache: CredentialCache;
}

export const callOptions = (deps: RestDeps, res: Response) => ({ headers: callHeaders(deps.signer, callerOf(res)) });
