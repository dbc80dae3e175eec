// Authenticate: turns a presented credential (an API key or an OAuth access token) into the
// principal, workspace and scopes the gateway acts with, while the workspace and every platform
// above it are active.
import { constantTimeEqual } from '@voice/runtime/crypto';
import { serviceError } from '@voice/runtime/errors';
import { accessTokenPrefix, apiKeyPrefix, hashCredential, looksLike } from '../domain/credentials.js';
import { authenticateAccessToken } from '../oauth/access-tokens.js';
import { presentWorkspace } from '../presenter.js';
import type { OAuthStore, WorkspaceKeyStore } from '../store/store.js';
import { activeStanding, type StandingStore } from './standing.js';

/** How long the gateway may keep an Authenticate answer; revocations reach it sooner. */
export const authenticationCacheSeconds = 60;
/** last_used_at is written at most this often per key, so reads stay reads. */
const lastUsedResolutionMs = 60_000;

const unauthenticated = () => serviceError('unauthorized', 'the credential is missing, invalid, expired or revoked');

export class Authentication {
  constructor(private readonly deps: { store: WorkspaceKeyStore & OAuthStore & StandingStore; now: () => Date }) {}

  async authenticate(credential: string) {
    if (!looksLike(credential, apiKeyPrefix)) throw unauthenticated();
    if (credential.startsWith(accessTokenPrefix)) {
      const answer = await authenticateAccessToken(this.deps.store, credential, this.deps.now(), authenticationCacheSeconds);
      if (!answer) throw unauthenticated();
      return answer;
    }
    const hash = hashCredential(credential);
    const key = await this.deps.store.findApiKeyByHash(hash);
    if (!key || !constantTimeEqual(key.keyHash, hash) || key.status !== 'active') throw unauthenticated();
    const standing = await activeStanding(this.deps.store, key.workspaceId);
    if (!standing) throw unauthenticated();
    const now = this.deps.now();
    if (!key.lastUsedAt || now.getTime() - Date.parse(key.lastUsedAt) >= lastUsedResolutionMs) {
      await this.deps.store.touchApiKey(key.id, now.toISOString());
    }
    return {
      principal: { type: 'service_account', id: key.principalId, name: key.name },
      workspace: presentWorkspace(standing.workspace),
      platformWorkspaceIds: standing.platformIds,
      unrestricted: key.scopes === null,
      scopes: key.scopes ?? [],
      credentialId: key.id,
      cacheTtlSeconds: authenticationCacheSeconds,
    };
  }
}
