// POST /oauth/register: dynamic client registration (RFC 7591). Identity validates the
// metadata (redirect rules included); this endpoint translates JSON in and out.
import type { Router } from 'express';
import express from 'express';
import { z } from 'zod';
import { maxClientNameLength, maxClientUriLength, maxRedirectUris } from '@voice/runtime/oauth';
import { validate } from '@voice/runtime/validation';
import type { OAuthDeps } from './deps.js';
import { OAuthError } from './oauth-error.js';
import { currentRealm } from '../tenants/tenant-context.js';

const atMost = (length: number) => `must be at most ${length} characters`;
/** Grant and response types are few; any list of them longer than the redirect URIs may be is refused here. */
const maxListed = maxRedirectUris;
const listedString = z.string().max(maxClientUriLength, atMost(maxClientUriLength));
const stringList = z.array(listedString).max(maxListed, `must list at most ${maxListed} values`);

/** Unknown metadata fields are ignored, as RFC 7591 2 asks of servers. */
const registrationSchema = z.looseObject({
  redirect_uris: z.array(listedString).min(1, 'must list at least one redirect URI').max(maxRedirectUris, `must list at most ${maxRedirectUris} redirect URIs`),
  client_name: z.string().max(maxClientNameLength, atMost(maxClientNameLength)).optional(),
  grant_types: stringList.optional(),
  response_types: stringList.optional(),
  token_endpoint_auth_method: z.string().max(64, atMost(64)).optional(),
  scope: z.string().max(2048, atMost(2048)).optional(),
  client_uri: z.string().max(maxClientUriLength, atMost(maxClientUriLength)).optional(),
});

export function registerRegistrationRoute(router: Router, deps: OAuthDeps): void {
  router.post(deps.paths.register, deps.limits.register, express.json({ limit: '64kb' }), deps.handle(async (req, res) => {
    if (!req.is('application/json')) throw new OAuthError('invalid_client_metadata', 'the body must be a JSON object sent as Content-Type: application/json');
    const input = validate(registrationSchema, req.body);
    if (!input.ok) {
      const redirect = input.issues.some((issue) => issue.field.startsWith('redirect_uris'));
      throw new OAuthError(redirect ? 'invalid_redirect_uri' : 'invalid_client_metadata', input.issues.map((i) => `${i.field}: ${i.issue}`).join('; '));
    }
    const body = input.value;
    const answer = await deps.clients.identity.registerClient(
      {
        clientName: body.client_name ?? '',
        redirectUris: body.redirect_uris,
        grantTypes: body.grant_types ?? [],
        responseTypes: body.response_types ?? [],
        tokenEndpointAuthMethod: body.token_endpoint_auth_method ?? '',
        scope: body.scope ?? '',
        clientUri: body.client_uri ?? '',
        // The client serves the users of the domain it registered through.
        realmWorkspaceId: currentRealm(),
      },
      deps.internalCall(res),
    );
    const client = answer.client!;
    res.status(201).json({
      client_id: client.clientId,
      client_id_issued_at: Number(client.createdAt?.seconds ?? 0n),
      ...(answer.clientSecret ? { client_secret: answer.clientSecret, client_secret_expires_at: 0 } : {}),
      client_name: client.clientName,
      redirect_uris: client.redirectUris,
      grant_types: client.grantTypes,
      response_types: ['code'],
      token_endpoint_auth_method: client.tokenEndpointAuthMethod,
      scope: client.scopes.join(' '),
      ...(client.clientUri ? { client_uri: client.clientUri } : {}),
    });
  }));
}
