// The token of an e-mail sender's confirmation link: the sender's id, the link's expiry and a
// one-use nonce, sealed by the runtime's Signer under a key derived from the internal secret for
// this purpose alone. The signature makes a tampered or forged link worthless without a database
// read; the expiry is signed, so it cannot be stretched; the nonce's hash is stored on the sender,
// and verifying clears it, so a link works once and a newer link replaces an older one.
import { isUuid } from '@voice/runtime/ids';
import { oneUseSecret, oneUseSecretHash, Signer } from '@voice/runtime/signed-tokens';

export interface ConfirmationClaim {
  senderId: string;
  /** Unix seconds. */
  expires: number;
  nonce: string;
}

export type TokenReading = { kind: 'valid'; claim: ConfirmationClaim } | { kind: 'expired'; claim: ConfirmationClaim } | { kind: 'invalid' };

// The nonce: a one-use secret, or the 32 base62 characters of links issued before it was one.
const claimShape = /^([0-9a-f-]{36})\.(\d{1,12})\.([0-9A-Za-z_-]{32,43})$/;

export class ConfirmationTokens {
  private readonly signer: Signer;

  constructor(internalSecret: Buffer) {
    this.signer = new Signer(internalSecret, 'voice-email-senders:confirmation-link');
  }

  /** A new token for the sender, valid for `ttlSeconds`; its nonce's hash is what the sender stores. */
  issue(senderId: string, ttlSeconds: number, now: Date): { token: string; nonceHash: string; expiresAt: Date } {
    const nonce = oneUseSecret();
    const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
    return { token: this.signer.seal(`${senderId}.${expires}.${nonce.secret}`), nonceHash: nonce.hash, expiresAt: new Date(expires * 1000) };
  }

  /** What the token says, if its signature holds: valid, or expired at `now`. */
  read(token: string, now: Date): TokenReading {
    const payload = this.signer.open(token);
    const match = payload === undefined ? null : claimShape.exec(payload);
    if (!match || !isUuid(match[1])) return { kind: 'invalid' };
    const claim = { senderId: match[1], expires: Number(match[2]), nonce: match[3]! };
    return claim.expires * 1000 > now.getTime() ? { kind: 'valid', claim } : { kind: 'expired', claim };
  }
}

/** What the sender stores of a link: its nonce's hash. */
export const confirmationHashOf = (claim: ConfirmationClaim): string => oneUseSecretHash(claim.nonce);
