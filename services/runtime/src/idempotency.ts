// Idempotency-Key rules shared by every endpoint that honours the header (API.md 1).
import { sha256Hex } from './crypto.js';

export const idempotencyWindowMs = 24 * 60 * 60 * 1000;

export const maxIdempotencyKeyLength = 255;

export const isValidIdempotencyKey = (key: string): boolean => key.length >= 1 && key.length <= maxIdempotencyKeyLength && !/[\u0000-\u001f\u007f]/.test(key);

/** JSON with object keys sorted, so equal requests hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const requestFingerprint = (request: unknown): string => sha256Hex(canonicalJson(request));

/** Claims made before the returned instant have expired. */
export const idempotencyExpiry = (now: Date): string => new Date(now.getTime() - idempotencyWindowMs).toISOString();

/** A create made under an Idempotency-Key, as a store decides it. */
export interface IdempotencyClaim {
  key: string;
  /** Hash of the request body; the same key with another body is a conflict. */
  fingerprint: string;
  now: string;
  /** Claims created before this instant have expired and are replaced. */
  expiredBefore: string;
}

/** The claim a request (its body, or what identifies it) makes under `key` at `now`. */
export const idempotencyClaim = (key: string, request: unknown, now: Date): IdempotencyClaim => ({
  key,
  fingerprint: requestFingerprint(request),
  now: now.toISOString(),
  expiredBefore: idempotencyExpiry(now),
});

/**
 * What a claim stored under the key decides for a new request: undefined when none binds (there is
 * none, or it expired and is replaced), `replay` for the same body, `key_reused` for another.
 */
export function claimBinding(stored: { fingerprint: string; createdAt: string } | undefined | null, claim: IdempotencyClaim): 'replay' | 'key_reused' | undefined {
  if (!stored || stored.createdAt < claim.expiredBefore) return undefined;
  return stored.fingerprint === claim.fingerprint ? 'replay' : 'key_reused';
}
