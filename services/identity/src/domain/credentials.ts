// Every credential this service issues: a prefix that says what it is, 43 random base62
// characters (256 bits), stored only as a SHA-256 hash.
import { randomBase62, sha256Hex } from '@voice/runtime/crypto';

export const apiKeyPrefix = 'svc_';
/** OAuth access tokens share the svc_ prefix; they are never API keys. */
export const accessTokenPrefix = 'svc_at_';
export const refreshTokenPrefix = 'svc_rt_';
export const authorizationCodePrefix = 'svc_ac_';
export const clientSecretPrefix = 'svc_cs_';

/** Longer presented values are refused before hashing; ours are at most 50 characters. */
export const maxPresentedLength = 512;

export const newCredential = (prefix: string): string => prefix + randomBase62(43);

export const generateApiKey = (): string => newCredential(apiKeyPrefix);

/** A presented value that could be one of ours of the given kind. */
export const looksLike = (value: string, prefix: string): boolean => value.startsWith(prefix) && value.length <= maxPresentedLength;

export const hashCredential = (credential: string): string => sha256Hex(credential);

export const keyHint = (key: string): string => `${apiKeyPrefix}…${key.slice(-4)}`;

/** VOICE_ROOT_API_KEY's rule: svc_ and at least 32 characters after it, and short enough to be presented. */
export const isValidRootKey = (key: string): boolean =>
  looksLike(key, apiKeyPrefix) && !key.startsWith(accessTokenPrefix) && /^[A-Za-z0-9_-]{32,}$/.test(key.slice(apiKeyPrefix.length));
