// Twilio's webhook signature (X-Twilio-Signature): base64 HMAC-SHA1, keyed with the auth token, of
// the full callback URL followed by every POST parameter's name and value, sorted by name.
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '@voice/runtime/crypto';
import type { CarrierCallback } from './carrier.js';

export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const signed = Object.keys(params)
    .sort()
    .reduce((text, name) => text + name + params[name], url);
  return createHmac('sha1', authToken).update(signed, 'utf8').digest('base64');
}

/** True when the callback was signed with this auth token; an empty token verifies nothing, as anyone could sign with it. */
export function verifyTwilioSignature(authToken: string, callback: CarrierCallback): boolean {
  if (authToken === '') return false;
  return constantTimeEqual(twilioSignature(authToken, callback.url, callback.params), callback.signature);
}
