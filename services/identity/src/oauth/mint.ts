// The one place grants and their tokens are built: the token endpoint (code exchange and
// refresh) and IssueUserTokens all mint through here.
import { scopesWithinRole, type Role } from '@voice/runtime/access';
import { newId } from '@voice/runtime/ids';
import { accessTokenPrefix, hashCredential, newCredential, refreshTokenPrefix } from '../domain/credentials.js';
import type { GrantRecord, OAuthClientRecord, TokenRecord } from '../store/store.js';
import { accessTokenSeconds, refreshTokenSeconds, secondsFrom } from '../domain/lifetimes.js';

/** An RFC 6749 5.1 token response. */
export interface IssuedTokens {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  /** Empty when the client may not use refresh tokens. */
  refreshToken: string;
  scopes: string[];
}

export interface Minted {
  records: TokenRecord[];
  response: IssuedTokens;
}

/** A new active grant of a user in a workspace. */
export function newGrant(fields: Pick<GrantRecord, 'clientId' | 'userId' | 'workspaceId' | 'scopes' | 'resource'>, now: Date): GrantRecord {
  return { id: newId(), ...fields, status: 'active', createdAt: now.toISOString() };
}

/**
 * A new access token with `scopes` and, for clients allowed to refresh, a new refresh token with
 * the grant's scopes. The response names what the token can do now: its scopes within the role.
 */
export function mintTokens(client: Pick<OAuthClientRecord, 'id' | 'grantTypes'>, grant: GrantRecord, scopes: string[], role: Role, now: Date): Minted {
  const token = (kind: TokenRecord['kind'], secret: string, tokenScopes: string[], seconds: number): TokenRecord => ({
    id: newId(),
    grantId: grant.id,
    kind,
    tokenHash: hashCredential(secret),
    clientId: client.id,
    userId: grant.userId,
    workspaceId: grant.workspaceId,
    scopes: tokenScopes,
    status: 'active',
    expiresAt: secondsFrom(now, seconds),
    createdAt: now.toISOString(),
  });
  const accessToken = newCredential(accessTokenPrefix);
  const refreshToken = client.grantTypes.includes('refresh_token') ? newCredential(refreshTokenPrefix) : '';
  const records = [token('access', accessToken, scopes, accessTokenSeconds)];
  if (refreshToken) records.push(token('refresh', refreshToken, grant.scopes, refreshTokenSeconds));
  return {
    records,
    response: { accessToken, tokenType: 'Bearer', expiresIn: accessTokenSeconds, refreshToken, scopes: scopesWithinRole(scopes, role) },
  };
}
