// What a refusal by a Twilio-compatible carrier means to the platform, by HTTP status and Twilio
// error code (https://www.twilio.com/docs/api/errors).
import { z } from 'zod';
import { CarrierRejected } from './carrier.js';
import type { TwilioAnswer } from './twilio-client.js';

/** Codes that refuse the destination number itself rather than the request. */
const destinationRefusals = new Map<number, string>([
  [21211, 'the destination is not a valid phone number'],
  [21408, "sending to the destination's region is not enabled for the account"],
  [21610, 'the recipient has unsubscribed from messages of this sender'],
  [21612, 'the carrier cannot route a message to the destination'],
  [21614, 'the destination cannot receive SMS'],
]);

/** Codes a purchase is refused with when the number is not (or no longer) for sale. */
const notForSaleCodes = new Set([21421, 21422]);

const errorBodySchema = z.object({ code: z.number().int().optional(), message: z.string().optional() });
const maxQuotedLength = 300;

export function isSuccess(answer: TwilioAnswer): boolean {
  return answer.status >= 200 && answer.status < 300;
}

function twilioError(answer: TwilioAnswer): { code?: number; message?: string } {
  const parsed = errorBodySchema.safeParse(answer.json);
  return parsed.success ? parsed.data : {};
}

export function isNotForSale(answer: TwilioAnswer): boolean {
  const { code } = twilioError(answer);
  return code !== undefined && notForSaleCodes.has(code);
}

/** The rejection an unsuccessful answer stands for; `redact` blanks the account's identifiers out of the carrier's words. */
export function rejectionOf(answer: TwilioAnswer, redact: (text: string) => string): CarrierRejected {
  const { code, message } = twilioError(answer);
  const quoted = message === undefined ? '' : `: ${redact(message).slice(0, maxQuotedLength)}`;
  const detail = `(status ${answer.status}${code === undefined ? '' : `, error ${code}`}${quoted})`;
  if (answer.status === 401 || answer.status === 403) return new CarrierRejected(`the carrier refused the credentials ${detail}`, 'authentication');
  const destination = code === undefined ? undefined : destinationRefusals.get(code);
  if (destination !== undefined) return new CarrierRejected(`${destination} ${detail}`, 'destination');
  if (answer.status >= 300 && answer.status < 400) {
    return new CarrierRejected(`the carrier answered with a redirect; check the connection's base URL ${detail}`, 'request');
  }
  return new CarrierRejected(`the carrier refused the request ${detail}`, 'request');
}
