// The authorization endpoint's decisions: CheckAuthorizationRequest before the login and consent
// page, IssueAuthorizationCode after it. Until client and redirect_uri are known good, errors
// must be shown on the page, never sent to the redirect_uri.
import { isUuid, newId } from '@voice/runtime/ids';
import type { CheckAuthorizationRequestRequest, IssueAuthorizationCodeRequest } from '@voice/proto/voice/identity/v1/identity';
import { authorizationCodePrefix, hashCredential, newCredential } from '../domain/credentials.js';
import { realmNamed } from '../workspaces/realms.js';
import { activeMember, type StandingStore } from '../credentials/standing.js';
import type { OAuthStore, WorkspaceKeyStore } from '../store/store.js';
import type { Clients, ResolvedClient } from './clients.js';
import { oauthError, withRedirectTrust } from './errors.js';
import { isCodeChallenge } from '../domain/pkce.js';
import { isRegisteredRedirectUri, redirectUriIssue } from '../domain/redirect-uris.js';
import { isResourceIndicator } from '../domain/resource.js';
import { parseScope, scopeIssue } from '../domain/oauth-scope.js';
import { authorizationCodeSeconds, secondsFrom } from '../domain/lifetimes.js';


export class Authorization {
  constructor(private readonly deps: { store: OAuthStore & WorkspaceKeyStore & StandingStore; clients: Clients; now: () => Date }) {}

  /** Every error carries redirect_uri_trusted (see errors.ts). */
  async check(request: CheckAuthorizationRequestRequest): Promise<{ client: ResolvedClient; scopes: string[] }> {
    const client = await this.trustedClient(request.clientId, request.redirectUri, request.realmWorkspaceId).catch((error: unknown) => {
      throw withRedirectTrust(error, false);
    });
    try {
      if (!request.responseType) throw oauthError('invalid_request', 'response_type is required');
      if (request.responseType !== 'code') throw oauthError('unsupported_response_type', `response_type must be code, not ${JSON.stringify(request.responseType)}`);
      // PKCE is mandatory: without code_challenge_method a client means plain (RFC 7636 4.3), which is refused too.
      if (!request.codeChallengeMethod) throw oauthError('invalid_request', 'code_challenge_method is required and must be S256');
      if (request.codeChallengeMethod !== 'S256') throw oauthError('invalid_request', `code_challenge_method must be S256, not ${JSON.stringify(request.codeChallengeMethod)}`);
      if (!request.codeChallenge) throw oauthError('invalid_request', 'code_challenge is required: the base64url SHA-256 of the code verifier');
      if (!isCodeChallenge(request.codeChallenge)) {
        throw oauthError('invalid_request', 'code_challenge must be the base64url SHA-256 of the code verifier (43 characters)');
      }
      return { client, scopes: this.requestedScopes(client, request.scope) };
    } catch (error) {
      throw withRedirectTrust(error, true);
    }
  }

  /** For a user the gateway signed in and who consented; checks everything again, the realm included. */
  async issueCode(request: IssueAuthorizationCodeRequest): Promise<string> {
    const client = await this.trustedClient(request.clientId, request.redirectUri, request.realmWorkspaceId);
    const issue = request.scopes.length === 0 ? 'no scopes were requested' : scopeIssue(request.scopes, client.scopes, 'registered for the client');
    if (issue) throw oauthError('invalid_scope', issue);
    if (!isCodeChallenge(request.codeChallenge)) throw oauthError('invalid_request', 'code_challenge must be a base64url SHA-256');
    if (request.resource && !isResourceIndicator(request.resource)) throw oauthError('invalid_target', 'resource must be an absolute URI without a fragment');
    const member = isUuid(request.userId) && isUuid(request.workspaceId) ? (await activeMember(this.deps.store, request.workspaceId, request.userId))?.member : undefined;
    // activeMember keeps the workspace in the user's realm; this keeps both in the page's.
    const realmId = await realmNamed(this.deps.store, request.realmWorkspaceId);
    if (!member || member.realmId !== realmId) throw oauthError('access_denied', 'the user is not an active member of an active workspace');
    const code = newCredential(authorizationCodePrefix);
    const now = this.deps.now();
    await this.deps.store.createAuthorizationCode({
      id: newId(),
      codeHash: hashCredential(code),
      clientId: client.id,
      userId: member.userId,
      workspaceId: member.workspaceId,
      redirectUri: request.redirectUri,
      scopes: [...new Set(request.scopes)],
      codeChallenge: request.codeChallenge,
      resource: request.resource,
      status: 'issued',
      grantId: null,
      expiresAt: secondsFrom(now, authorizationCodeSeconds),
      createdAt: now.toISOString(),
    });
    return code;
  }

  /** The client, once it serves the realm and redirect_uri is one of its redirect URIs. */
  private async trustedClient(clientId: string, redirectUri: string, realmWorkspaceId: string): Promise<ResolvedClient> {
    if (!clientId) throw oauthError('invalid_request', 'client_id is required');
    const client = await this.deps.clients.resolveIn(clientId, realmWorkspaceId);
    if (!redirectUri) throw oauthError('invalid_request', 'redirect_uri is required');
    // A URI no client may register says which rule it breaks; an allowed one that is not the client's says so.
    const issue = redirectUriIssue(redirectUri);
    if (issue) throw oauthError('invalid_request', `redirect_uri ${issue}`);
    if (!isRegisteredRedirectUri(client.redirectUris, redirectUri)) throw oauthError('invalid_request', 'redirect_uri is not registered for this client');
    return client;
  }

  private requestedScopes(client: ResolvedClient, scope: string): string[] {
    const { scopes } = parseScope(scope);
    const issue = scopeIssue(scopes, client.scopes, 'registered for the client');
    if (issue) throw oauthError('invalid_scope', issue);
    return scopes.length > 0 ? scopes : client.scopes;
  }
}
