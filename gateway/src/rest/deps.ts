// What REST route modules need. Calls to the services carry the signed options of each call
// (`call.options`), which the router derives from the authenticated caller.
import type { CredentialCache } from '../auth/credential-cache.js';
import type { ServiceClients } from '../clients.js';

export interface RestDeps {
  clients: ServiceClients;
  cache: CredentialCache;
  /** The public address of this request (the tenant's on its domain). */
  publicUrl: () => string;
}
