// What REST route modules need, and the signed call options for a request's caller.
import type { Response } from 'express';
import type { CallerSigner } from '@voice/runtime';
import type { CredentialCache } from '../auth/credential-cache.js';
import { callOptionsFor } from '../auth/signed-caller.js';
import type { ServiceClients } from '../clients.js';

export interface RestDeps {
  clients: ServiceClients;
  signer: CallerSigner;
  cache: CredentialCache;
}

export const callOptions = (deps: RestDeps, res: Response) => callOptionsFor(res, deps.signer);
