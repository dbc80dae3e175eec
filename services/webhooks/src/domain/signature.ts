// The Voice-Signature scheme, as Stripe signs: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`
// with one v1 per secret that still signs, and the secrets themselves (whsec_ + random, hinted).
import { createHmac } from 'node:crypto';
import { randomBase62 } from '@voice/runtime/crypto';
import { webhookSecretPrefix } from '@voice/contracts/webhooks';

export const newWebhookSecret = (): string => `${webhookSecretPrefix}${randomBase62(40)}`;

/** The prefix and last four characters: enough to tell secrets apart, never enough to sign. */
export const secretHint = (secret: string): string => `${webhookSecretPrefix}…${secret.slice(-4)}`;

export const signatureOf = (secret: string, timestamp: number, body: string): string =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

/** The header value for `body` sent at `at`, signed by every secret given (newest first). */
export function signatureHeaderValue(secrets: readonly string[], at: Date, body: string): string {
  const timestamp = Math.floor(at.getTime() / 1000);
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signatureOf(secret, timestamp, body)}`)].join(',');
}
