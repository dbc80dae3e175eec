// The protected resources this authorization server issues tokens for (RFC 8707, RFC 9728):
// the REST API (identified by the origin, whose metadata sits at the root well-known path) and
// the MCP endpoint (identified by its URL without query).
import { OAuthError } from './oauth-error.js';

export interface Resources {
  api: string;
  mcp: string;
}

export const resourcesOf = (publicUrl: string): Resources => ({ api: publicUrl, mcp: `${publicUrl}/mcp` });

/** invalid_target (RFC 8707) for a `resource` that names none of ours, saying which ones there are. */
export const unknownResource = (resources: Resources): OAuthError =>
  new OAuthError('invalid_target', `resource must be ${resources.api} (the REST API) or ${resources.mcp} (the MCP endpoint)`);

/** The canonical resource a `resource` parameter names, or undefined when it is not ours. */
export function canonicalResource(resources: Resources, requested: string): string | undefined {
  const trimmed = requested.replace(/\/+$/, '');
  if (trimmed === resources.api || trimmed === `${resources.api}/api/v1`) return resources.api;
  if (trimmed === resources.mcp) return resources.mcp;
  return undefined;
}
