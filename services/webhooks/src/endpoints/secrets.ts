// An endpoint's signing secrets: made and sealed at creation, rotated with the previous secret
// still signing for 24 hours, opened only to sign a delivery.
import { secretRotationOverlapHours } from '@voice/contracts/webhooks';
import type { SecretBox } from '@voice/runtime/crypto';
import { newWebhookSecret, secretHint } from '../domain/signature.js';
import type { EndpointSecret } from '../store/store.js';

/** How long the secret before a rotation keeps signing beside the new one. */
export const rotationOverlapMs = secretRotationOverlapHours * 3600_000;

export class EndpointSecrets {
  constructor(private readonly box: SecretBox) {}

  /** A new secret: the plaintext to show once, and its stored form. */
  create(): { secret: string; stored: EndpointSecret } {
    const secret = newWebhookSecret();
    return { secret, stored: { sealed: this.box.seal(secret), hint: secretHint(secret), expiresAt: null } };
  }

  /** The list after a rotation at `now`: the new secret, and the one it replaces until 24 hours from now; expired ones are dropped. */
  rotate(current: readonly EndpointSecret[], now: Date): { secret: string; secrets: EndpointSecret[] } {
    const { secret, stored } = this.create();
    const previous = current[0];
    const kept = previous ? [{ ...previous, expiresAt: new Date(now.getTime() + rotationOverlapMs).toISOString() }] : [];
    return { secret, secrets: [stored, ...kept] };
  }

  /** The plaintexts of the secrets that sign at `now`, newest first. */
  signing(secrets: readonly EndpointSecret[], now: Date): string[] {
    return secrets.filter((secret) => secret.expiresAt === null || Date.parse(secret.expiresAt) > now.getTime()).map((secret) => this.box.open(secret.sealed));
  }
}
