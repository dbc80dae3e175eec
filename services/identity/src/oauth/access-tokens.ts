// Authenticate for OAuth access tokens: a user acting in one workspace, with the token's scopes
// narrowed to what the member's current role allows, so role changes apply at once.
import type { MessageInitShape } from '@bufbuild/protobuf';
import { scopesWithinRole } from '@voice/runtime/access';
import { constantTimeEqual } from '@voice/runtime/crypto';
import type { AuthenticateResponseSchema } from '@voice/proto/voice/identity/v1/identity';
import { hashCredential } from '../domain/credentials.js';
import { presentWorkspace } from '../presenter.js';
import { activeMember, type StandingStore } from '../credentials/standing.js';
import type { OAuthStore } from '../store/store.js';

type Answer = MessageInitShape<typeof AuthenticateResponseSchema>;

/** The answer for a valid access token, or undefined for anything else (refresh tokens and codes included). */
export async function authenticateAccessToken(
  store: OAuthStore & StandingStore,
  credential: string,
  now: Date,
  maxCacheSeconds: number,
): Promise<Answer | undefined> {
  const hash = hashCredential(credential);
  const token = await store.findToken(hash);
  if (!token || !constantTimeEqual(token.tokenHash, hash) || token.kind !== 'access' || token.status !== 'active') return undefined;
  const remainingMs = Date.parse(token.expiresAt) - now.getTime();
  if (remainingMs <= 0) return undefined;
  const active = await activeMember(store, token.workspaceId, token.userId);
  if (!active) return undefined;
  const { member, standing } = active;
  const grant = await store.getGrant(token.grantId);
  return {
    principal: { type: 'user', id: member.userId, name: member.name },
    workspace: presentWorkspace(standing.workspace),
    platformWorkspaceIds: standing.platformIds,
    audience: grant?.resource ?? '',
    unrestricted: false,
    scopes: scopesWithinRole(token.scopes, member.role),
    credentialId: token.id,
    cacheTtlSeconds: Math.min(maxCacheSeconds, Math.floor(remainingMs / 1000)),
  };
}
