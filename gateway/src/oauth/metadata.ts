// Discovery: authorization server metadata (RFC 8414) and protected resource metadata
// (RFC 9728) for the REST API and for /mcp.
import type { Express } from 'express';
import { canonicalScopes } from '@voice/runtime/access';
import { resourcesOf } from './resources.js';

export const oauthPaths = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
} as const;

/** RFC 9728 metadata of the REST API (whose resource is the origin) and of the MCP endpoint. */
export const protectedResourceMetadataPaths = {
  api: '/.well-known/oauth-protected-resource',
  mcp: '/.well-known/oauth-protected-resource/mcp',
} as const;

const clientAuthMethods = ['none', 'client_secret_basic', 'client_secret_post'];

export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}${oauthPaths.authorize}`,
    token_endpoint: `${issuer}${oauthPaths.token}`,
    registration_endpoint: `${issuer}${oauthPaths.register}`,
    revocation_endpoint: `${issuer}${oauthPaths.revoke}`,
    scopes_supported: [...canonicalScopes],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: clientAuthMethods,
    revocation_endpoint_auth_methods_supported: clientAuthMethods,
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
  };
}

function protectedResourceMetadata(resource: string, issuer: string, name: string) {
  return {
    resource,
    authorization_servers: [issuer],
    scopes_supported: [...canonicalScopes],
    bearer_methods_supported: ['header'],
    resource_name: name,
  };
}

export function registerMetadataRoutes(app: Express, publicUrl: () => string): void {
  const serve = (path: string, document: () => object) =>
    app.get(path, (_req, res) => {
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.json(document());
    });
  serve('/.well-known/oauth-authorization-server', () => authorizationServerMetadata(publicUrl()));
  serve(protectedResourceMetadataPaths.api, () => protectedResourceMetadata(resourcesOf(publicUrl()).api, publicUrl(), 'Voice platform REST API'));
  serve(protectedResourceMetadataPaths.mcp, () => protectedResourceMetadata(resourcesOf(publicUrl()).mcp, publicUrl(), 'Voice platform MCP endpoint'));
}
