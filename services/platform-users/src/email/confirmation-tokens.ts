// The token of an e-mail sender's confirmation link: the sender's id, the link's expiry and a random
// nonce, signed with HMAC-SHA256 under a key derived from the internal secret for this purpose alone.
// The signature makes a tampered or forged link worthless without a database read; the expiry is
// signed, so it cannot be stretched; the nonce's SHA-256 is stored on the sender, and verifying clears
// it, so a link works once and a newer link replaces an older one.
import { createHmac } from 'node:crypto';
import { constantTimeEqual, deriveKey, randomBase62, sha256Hex } from '@voice/runtime/crypto';
import { isUuid } from '@voice/runtime/ids';

export interface ConfirmationClaim {
  senderId: string;
  /** Unix seconds. */
  expires: number;
  nonce: string;
}

export type TokenReading = { kind: 'valid'; claim: ConfirmationClaim } | { kind: 'expired'; claim: ConfirmationClaim } | { kind: 'invalid' };

const tokenShape = /^[A-Za-z0-9_-]{1,200}\.[A-Za-z0-9_-]{43}$/;
const claimShape = /^([0-9a-f-]{36})\.(\d{1,12})\.([0-9A-Za-z]{32})$/;

export class ConfirmationTokens {
  private readonly key: Buffer;

  constructor(internalSecret: Buffer) {
    this.key = deriveKey(internalSecret, 'voice-email-senders:confirmation-link');
  }

  /** A new token for the sender, valid for `ttlSeconds`; its nonce's hash is what the sender stores. */
  issue(senderId: string, ttlSeconds: number, now: Date): { token: string; nonceHash: string; expiresAt: Date } {
    const claim = { senderId, expires: Math.floor(now.getTime() / 1000) + ttlSeconds, nonce: randomBase62(32) };
    const payload = Buffer.from(`${claim.senderId}.${claim.expires}.${claim.nonce}`).toString('base64url');
    return { token: `${payload}.${this.mac(payload)}`, nonceHash: confirmationHashOf(claim), expiresAt: new Date(claim.expires * 1000) };
  }

  /** What the token says, if its signature holds: valid, or expired at `now`. */
  read(token: string, now: Date): TokenReading {
    if (!tokenShape.test(token)) return { kind: 'invalid' };
    const [payload, signature] = token.split('.') as [string, string];
    if (!constantTimeEqual(signature, this.mac(payload))) return { kind: 'invalid' };
    const match = claimShape.exec(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!match || !isUuid(match[1])) return { kind: 'invalid' };
    const claim = { senderId: match[1], expires: Number(match[2]), nonce: match[3]! };
    return claim.expires * 1000 > now.getTime() ? { kind: 'valid', claim } : { kind: 'expired', claim };
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}

/** What the sender stores of a link: the SHA-256 of its nonce. */
export const confirmationHashOf = (claim: ConfirmationClaim): string => sha256Hex(claim.nonce);
