// POST /oauth/token (authorization_code and refresh_token grants) and POST /oauth/revoke
// (RFC 7009). Identity holds codes, grants and tokens; these endpoints speak the wire format.
import type { Router } from 'express';
import type { IssuedTokens } from '@voice/proto/voice/identity/v1/identity';
import { clientCredentialsOf } from './client-auth.js';
import type { OAuthDeps } from './deps.js';
import { formOf, parseForm } from './form.js';
import { missingParameters, OAuthError } from './oauth-error.js';
import { canonicalResource, unknownResource } from './resources.js';

const tokenResponse = (tokens: IssuedTokens) => ({
  access_token: tokens.accessToken,
  token_type: tokens.tokenType,
  expires_in: tokens.expiresIn,
  refresh_token: tokens.refreshToken,
  scope: tokens.scopes.join(' '),
});

export function registerTokenRoutes(router: Router, deps: OAuthDeps): void {
  /** RFC 8707 resource of a token request: ours in canonical form, or empty when none was sent. */
  const ourResource = (requested: string | undefined): string => {
    if (requested === undefined) return '';
    const resource = canonicalResource(deps.resources(), requested);
    if (!resource) throw unknownResource(deps.resources());
    return resource;
  };

  router.post(deps.paths.token, deps.limits.token, parseForm, deps.handle(async (req, res) => {
    const form = formOf(req);
    const client = clientCredentialsOf(req, form);
    let tokens: IssuedTokens | undefined;
    switch (form.grant_type) {
      case 'authorization_code': {
        const missing = missingParameters({ code: form.code, redirect_uri: form.redirect_uri, code_verifier: form.code_verifier });
        if (missing) throw missing;
        const resource = ourResource(form.resource);
        const answer = await deps.clients.identity.exchangeAuthorizationCode(
          {
            clientId: client.clientId,
            clientSecret: client.clientSecret,
            clientAuthMethod: client.method,
            code: form.code,
            redirectUri: form.redirect_uri,
            codeVerifier: form.code_verifier,
            resource,
          },
          deps.internalCall(res),
        );
        tokens = answer.tokens;
        break;
      }
      case 'refresh_token': {
        if (!form.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
        const answer = await deps.clients.identity.refreshAccessToken(
          {
            clientId: client.clientId,
            clientSecret: client.clientSecret,
            clientAuthMethod: client.method,
            refreshToken: form.refresh_token,
            scope: form.scope ?? '',
            resource: ourResource(form.resource),
          },
          deps.internalCall(res),
        );
        tokens = answer.tokens;
        break;
      }
      case undefined:
        throw new OAuthError('invalid_request', 'grant_type is required');
      default:
        throw new OAuthError('unsupported_grant_type', `grant_type must be authorization_code or refresh_token, not ${JSON.stringify(form.grant_type)}`);
    }
    res.setHeader('Pragma', 'no-cache');
    res.json(tokenResponse(tokens!));
  }));

  router.post(deps.paths.revoke, deps.limits.token, parseForm, deps.handle(async (req, res) => {
    const form = formOf(req);
    const client = clientCredentialsOf(req, form);
    if (!form.token) throw new OAuthError('invalid_request', 'token is required');
    await deps.clients.identity.revokeToken(
      { token: form.token, clientId: client.clientId, clientSecret: client.clientSecret, clientAuthMethod: client.method },
      deps.internalCall(res),
    );
    res.status(200).end();
  }));
}
