// The token and revocation endpoints' state changes: code exchange with PKCE, refresh with
// rotation and replay detection, and RFC 7009 revocation. A reused code or refresh token revokes
// its whole grant, announced before the call returns.
import type { Notifier } from '@voice/runtime/nats';
import type {
  ExchangeAuthorizationCodeRequest,
  RefreshAccessTokenRequest,
  RevokeTokenRequest,
} from '@voice/proto/voice/identity/v1/identity';
import { accessTokenPrefix, authorizationCodePrefix, hashCredential, looksLike, refreshTokenPrefix } from '../domain/credentials.js';
import { announceRevoked } from '../credentials/revocations.js';
import { activeMember, type StandingStore } from '../credentials/standing.js';
import type { OAuthStore } from '../store/store.js';
import type { Clients } from './clients.js';
import { invalidGrant, oauthError } from './errors.js';
import { mintTokens, newGrant, type IssuedTokens } from './mint.js';
import { verifierMatches } from '../domain/pkce.js';
import { canonicalRedirectUri } from '../domain/redirect-uris.js';
import { parseScope, scopeIssue } from '../domain/oauth-scope.js';

export class TokenEndpoint {
  constructor(private readonly deps: { store: OAuthStore & StandingStore; clients: Clients; notifier: Notifier; now: () => Date }) {}

  async exchange(request: ExchangeAuthorizationCodeRequest): Promise<IssuedTokens> {
    const client = await this.deps.clients.authenticate(request.clientId, request.clientSecret, request.clientAuthMethod);
    if (!client.grantTypes.includes('authorization_code')) throw oauthError('unauthorized_client', 'the client may not use the authorization_code grant');
    const code = looksLike(request.code, authorizationCodePrefix) ? await this.deps.store.findAuthorizationCode(hashCredential(request.code)) : undefined;
    if (!code || code.status === 'revoked') throw invalidGrant('authorization code');
    if (code.status === 'used') {
      // RFC 6749 4.1.2: a code used twice may have leaked; everything issued from it goes.
      await announceRevoked(this.deps.notifier, { credentialIds: code.grantId ? await this.deps.store.revokeGrant(code.grantId) : [] });
      throw invalidGrant('authorization code');
    }
    const now = this.deps.now();
    if (code.clientId !== client.id || Date.parse(code.expiresAt) <= now.getTime()) throw invalidGrant('authorization code');
    if (canonicalRedirectUri(code.redirectUri) !== canonicalRedirectUri(request.redirectUri)) {
      throw oauthError('invalid_grant', 'redirect_uri must be the one the authorization request sent');
    }
    if (!verifierMatches(request.codeVerifier, code.codeChallenge)) throw oauthError('invalid_grant', 'code_verifier does not match the code_challenge');
    if (request.resource && request.resource !== code.resource) throw oauthError('invalid_target', 'resource is not the one the code was issued for');
    const member = (await activeMember(this.deps.store, code.workspaceId, code.userId))?.member;
    if (!member) throw invalidGrant('authorization code');

    const grant = newGrant({ clientId: client.id, userId: code.userId, workspaceId: code.workspaceId, scopes: code.scopes, resource: code.resource }, now);
    const minted = mintTokens(client, grant, grant.scopes, member.role, now);
    const outcome = await this.deps.store.redeemAuthorizationCode(code.id, grant, minted.records);
    if (outcome.kind === 'reused') await announceRevoked(this.deps.notifier, { credentialIds: outcome.revokedCredentialIds });
    if (outcome.kind !== 'redeemed') throw invalidGrant('authorization code');
    return minted.response;
  }

  async refresh(request: RefreshAccessTokenRequest): Promise<IssuedTokens> {
    const client = await this.deps.clients.authenticate(request.clientId, request.clientSecret, request.clientAuthMethod);
    if (!client.grantTypes.includes('refresh_token')) throw oauthError('unauthorized_client', 'the client may not use the refresh_token grant');
    const token = looksLike(request.refreshToken, refreshTokenPrefix) ? await this.deps.store.findToken(hashCredential(request.refreshToken)) : undefined;
    if (!token || token.kind !== 'refresh' || token.clientId !== client.id || token.status === 'revoked') throw invalidGrant('refresh token');
    if (token.status === 'used') {
      // A rotated token presented again: either the client or a thief holds a copy, so neither keeps the grant.
      await announceRevoked(this.deps.notifier, { credentialIds: await this.deps.store.revokeGrant(token.grantId) });
      throw invalidGrant('refresh token');
    }
    const now = this.deps.now();
    const grant = await this.deps.store.getGrant(token.grantId);
    if (Date.parse(token.expiresAt) <= now.getTime() || grant?.status !== 'active') throw invalidGrant('refresh token');
    const member = (await activeMember(this.deps.store, grant.workspaceId, grant.userId))?.member;
    if (!member) throw invalidGrant('refresh token');
    // A refresh keeps the grant's resource; it cannot move the tokens to another one.
    if (request.resource && request.resource !== grant.resource) throw oauthError('invalid_target', 'resource is not the one the grant was issued for');
    const { scopes } = parseScope(request.scope);
    const issue = scopeIssue(scopes, grant.scopes, 'the user granted');
    if (issue) throw oauthError('invalid_scope', issue);

    const minted = mintTokens(client, grant, scopes.length > 0 ? scopes : grant.scopes, member.role, now);
    const outcome = await this.deps.store.rotateRefreshToken(token.id, minted.records);
    if (outcome.kind === 'reused') await announceRevoked(this.deps.notifier, { credentialIds: outcome.revokedCredentialIds });
    if (outcome.kind !== 'rotated') throw invalidGrant('refresh token');
    return minted.response;
  }

  /** RFC 7009: unknown tokens and other clients' tokens succeed without effect. */
  async revoke(request: RevokeTokenRequest): Promise<void> {
    const client = await this.deps.clients.authenticate(request.clientId, request.clientSecret, request.clientAuthMethod);
    const ours = looksLike(request.token, accessTokenPrefix) || looksLike(request.token, refreshTokenPrefix);
    const token = ours ? await this.deps.store.findToken(hashCredential(request.token)) : undefined;
    if (!token || token.clientId !== client.id) return;
    const revoked = token.kind === 'refresh' ? await this.deps.store.revokeGrant(token.grantId) : await this.deps.store.revokeToken(token.id);
    await announceRevoked(this.deps.notifier, { credentialIds: revoked });
  }
}
