// The token that lets a voice runtime act on one call and no other: an HMAC of the call id under a
// key derived from the platform's internal secret, so nothing is stored and any replica can check it.
import { createHmac } from 'node:crypto';
import { constantTimeEqual, deriveKey } from '@voice/runtime/crypto';

export class SessionTokens {
  private readonly key: Buffer;

  constructor(internalSecret: Buffer) {
    // A key of its own: a session token never verifies as anything else signed with the secret.
    this.key = deriveKey(internalSecret, 'voice.calls.session-token.v1');
  }

  issue(callId: string): string {
    return createHmac('sha256', this.key).update(callId).digest('base64url');
  }

  verify(callId: string, token: string): boolean {
    return token.length > 0 && constantTimeEqual(token, this.issue(callId));
  }
}
