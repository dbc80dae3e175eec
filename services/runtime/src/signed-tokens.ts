// The one way the platform signs what it hands out and later takes back (confirmation links, login
// tickets, CSRF tokens, recording download addresses, voice session tokens): HMAC-SHA256 under a key
// derived for one purpose, checked in constant time; and the one-use secret of a link whose SHA-256
// alone is stored (invitations, the nonce of a confirmation link).
import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { constantTimeEqual, deriveKey, sha256Hex } from './crypto.js';

const signaturePattern = /^[A-Za-z0-9_-]{43}$/;
/** A sealed token's payload is short (ids, an expiry, a nonce): anything longer is not ours. */
const sealedPattern = /^([A-Za-z0-9_-]{1,2048})\.([A-Za-z0-9_-]{43})$/;

/** Signs and verifies for one purpose: a signature made for one purpose never verifies for another. */
export class Signer {
  private readonly key: KeyObject;

  /** `purpose` is part of the key (see deriveKey): never change a purpose's label. */
  constructor(secret: Buffer, purpose: string) {
    this.key = createSecretKey(deriveKey(secret, purpose));
  }

  /** The signature of `payload`: 43 base64url characters. */
  sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }

  /** True when `signature` is this purpose's signature of `payload`, compared in constant time. */
  verify(payload: string, signature: string): boolean {
    return signaturePattern.test(signature) && constantTimeEqual(signature, this.sign(payload));
  }

  /** A token that carries `payload` (base64url) and its signature: `<payload>.<signature>`. */
  seal(payload: string): string {
    const encoded = Buffer.from(payload, 'utf8').toString('base64url');
    return `${encoded}.${this.sign(encoded)}`;
  }

  /** The payload of a token this purpose sealed; undefined for anything else (forged, altered, malformed). */
  open(token: string): string | undefined {
    const match = sealedPattern.exec(token);
    if (!match || !this.verify(match[1]!, match[2]!)) return undefined;
    return Buffer.from(match[1]!, 'base64url').toString('utf8');
  }
}

/** The shape of a one-use secret: 32 random bytes in base64url. */
export const oneUseSecretPattern = /^[A-Za-z0-9_-]{43}$/;

/**
 * A secret for one use, to travel in a link: the secret for the link and the hash to store, so a
 * copy of the database redeems nothing.
 */
export function oneUseSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: oneUseSecretHash(secret) };
}

/** What is stored of a one-use secret, and what a presented one is looked up by. */
export const oneUseSecretHash = (secret: string): string => sha256Hex(secret);
