// OAuth credential material: 43 random base62 characters after a prefix that says what it is,
// stored only as SHA-256 hashes; and how long each lives.
import { randomBase62 } from '@voice/runtime';
import { accessTokenPrefix } from '../keys.js';

export { accessTokenPrefix };
export const refreshTokenPrefix = 'svc_rt_';
export const authorizationCodePrefix = 'svc_ac_';
export const clientSecretPrefix = 'svc_cs_';

export const accessTokenSeconds = 3600;
export const refreshTokenSeconds = 30 * 24 * 3600;
export const authorizationCodeSeconds = 60;

/** Longer presented values are refused before hashing; ours are 50 characters. */
export const maxPresentedLength = 512;

export const newCredential = (prefix: string): string => prefix + randomBase62(43);

/** A presented value that could be one of ours of the given kind. */
export const looksLike = (value: string, prefix: string): boolean => value.startsWith(prefix) && value.length <= maxPresentedLength;

export const secondsFrom = (now: Date, seconds: number): string => new Date(now.getTime() + seconds * 1000).toISOString();
