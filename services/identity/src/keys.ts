// Service-account key material: 256 random bits after the prefix, stored only as a hash.
import { randomBase62, sha256Hex } from '@voice/runtime';

export const apiKeyPrefix = 'svc_';
/** OAuth access tokens share the svc_ prefix; they are never API keys. */
export const accessTokenPrefix = 'svc_at_';

export const generateApiKey = (): string => apiKeyPrefix + randomBase62(43);

export const hashCredential = (credential: string): string => sha256Hex(credential);

export const keyHint = (key: string): string => `${apiKeyPrefix}…${key.slice(-4)}`;

/** VOICE_ROOT_API_KEY's rule: svc_ and at least 32 characters after it. */
export const isValidRootKey = (key: string): boolean =>
  key.startsWith(apiKeyPrefix) && !key.startsWith(accessTokenPrefix) && /^[A-Za-z0-9_-]{32,}$/.test(key.slice(apiKeyPrefix.length));
