// The token that lets a voice runtime act on one call and no other: the runtime Signer's signature of
// the call id under a key derived from the platform's internal secret, so nothing is stored and any
// replica can check it.
import { Signer } from '@voice/runtime/signed-tokens';

export class SessionTokens {
  private readonly signer: Signer;

  constructor(internalSecret: Buffer) {
    // A key of its own: a session token never verifies as anything else signed with the secret.
    this.signer = new Signer(internalSecret, 'voice.calls.session-token.v1');
  }

  issue(callId: string): string {
    return this.signer.sign(callId);
  }

  verify(callId: string, token: string): boolean {
    return this.signer.verify(callId, token);
  }
}
