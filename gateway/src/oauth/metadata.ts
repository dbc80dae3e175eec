// Discovery: authorization server metadata (RFC 8414) and protected resource metadata
// (RFC 9728) for the REST API and for /mcp.
import type { Express } from 'express';
import { canonicalScopes } from '@voice/runtime';
import { resourcesOf } from './resources.js';

export const oauthPaths = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
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
  const json = (body: unknown) => (_req: unknown, res: { setHeader(n: string, v: string): void; json(b: unknown): void }) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(body);
  };
  app.get('/.well-known/oauth-authorization-server', (req, res) => json(authorizationServerMetadata(publicUrl()))(req, res));
  app.get('/.well-known/oauth-protected-resource', (req, res) =>
    json(protectedResourceMetadata(resourcesOf(publicUrl()).api, publicUrl(), 'Voice platform REST API'))(req, res),
  );
  app.get('/.well-known/oauth-protected-resource/mcp', (req, res) =>
    json(protectedResourceMetadata(resourcesOf(publicUrl()).mcp, publicUrl(), 'Voice platform MCP endpoint'))(req, res),
  );
}
