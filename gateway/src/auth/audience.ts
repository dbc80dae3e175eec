// Where a credential may be used (RFC 8707; the MCP authorization spec 2025-11-25 has a server
// refuse tokens issued for another): an OAuth access token only at the resource it was issued
// for, a service-account key at every resource (SPEC.md 1 rule 2).
import type { Resources } from '../oauth/resources.js';
import type { AuthContext } from './auth-context.js';

/** True when the credential may be used at the `served` resource of this domain. */
export function acceptsAudience(auth: Pick<AuthContext, 'principal' | 'audience'>, served: keyof Resources, resources: Resources): boolean {
  if (auth.principal.type === 'service_account') return true;
  // Grants recorded before audiences were carry none: they were only ever meant for the REST API.
  if (auth.audience === '') return served === 'api';
  return auth.audience === resources[served];
}
