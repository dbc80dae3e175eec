// PKCE (RFC 7636), S256 only: the challenge is a SHA-256 in base64url, the verifier 43 to 128
// unreserved characters.
import { createHash } from 'node:crypto';
import { constantTimeEqual } from '@voice/runtime/crypto';

/** 43 base64url characters that decode to exactly 32 bytes (the last character's spare bits zero). */
export const isCodeChallenge = (challenge: string): boolean =>
  /^[A-Za-z0-9_-]{43}$/.test(challenge) && Buffer.from(challenge, 'base64url').toString('base64url') === challenge;

export const isCodeVerifier = (verifier: string): boolean => /^[A-Za-z0-9._~-]{43,128}$/.test(verifier);

export const s256 = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

export const verifierMatches = (verifier: string, challenge: string): boolean =>
  isCodeVerifier(verifier) && constantTimeEqual(s256(verifier), challenge);
