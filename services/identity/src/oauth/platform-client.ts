// The built-in public client of the tokens IssueUserTokens hands out on a user's behalf. It has
// no redirect URIs and only the refresh_token grant, so no authorization request can name it;
// it exists in the store only so that the token endpoint rotates its refresh tokens like any other.
import { canonicalScopes } from '@voice/runtime/access';
import type { OAuthClientRecord, OAuthStore } from '../store/store.js';

/** Fixed, so every replica and every start agree on it. */
export const platformClientId = '5b0c3e8a-2f4d-4c1e-9a7b-6d2e8f1a0c35';

export function platformClient(createdAt: string): OAuthClientRecord {
  return {
    id: platformClientId,
    name: 'Platform-issued tokens',
    redirectUris: [],
    scopes: [...canonicalScopes],
    grantTypes: ['refresh_token'],
    tokenEndpointAuthMethod: 'none',
    secretHash: null,
    clientUri: null,
    realmId: null,
    createdAt,
  };
}

/** Run on every start: creates the client the first time and leaves it alone afterwards. */
export function ensurePlatformClient(store: OAuthStore, now: Date = new Date()): Promise<'created' | 'exists'> {
  return store.ensureClient(platformClient(now.toISOString()));
}
