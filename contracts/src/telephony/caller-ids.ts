// Caller IDs' request and answer schemas, with their limits: shared by the gateway (validation,
// OpenAPI, MCP) and the telephony service (its own RPC boundary).
import { z } from 'zod';
import { e164Schema, idSchema, timeSchema } from '../responses.js';
import { phoneNumberField } from './requests.js';

export const callerIdMethods = ['sms', 'call'] as const;
export const callerIdStatuses = ['pending', 'verified', 'failed'] as const;

/** Digits in a verification code. */
export const verificationCodeLength = 6;
/** How long a code works. */
export const verificationCodeLifetimeMinutes = 10;
/** Wrong codes a caller ID takes before it fails. */
export const maxVerificationAttempts = 5;

/** How many codes go out in a window, per destination number (across the platform) or per workspace. */
export interface CodeSendLimit {
  codes: number;
  windowSeconds: number;
}

/**
 * The limits on codes sent unless the operator sets others (telephony's VOICE_CALLER_ID_CODES_*):
 * a number gets a few codes a day whoever asks, so no workspace can make the platform text or call
 * a stranger's phone again and again; a workspace sends a few dozen an hour across its numbers.
 */
export const defaultCodeSendLimits: Readonly<{ perNumber: CodeSendLimit; perWorkspace: CodeSendLimit }> = {
  perNumber: { codes: 3, windowSeconds: 24 * 3600 },
  perWorkspace: { codes: 10, windowSeconds: 3600 },
};

export const createCallerIdBodySchema = z.strictObject({
  phone_number: phoneNumberField.describe('the number to verify, in international format with a leading + (stored in E.164)'),
  label: z.string().trim().max(100, 'must be at most 100 characters').default('').describe('a name for people, at most 100 characters'),
  method: z.enum(callerIdMethods).default('sms').describe('how the code is sent: sms (the default) or call'),
});

export const verifyCallerIdBodySchema = z.strictObject({
  code: z
    .string()
    .regex(new RegExp(`^\\d{${verificationCodeLength}}$`), `must be the ${verificationCodeLength}-digit code`)
    .describe(`the ${verificationCodeLength}-digit code sent to the number`),
});

export const callerIdSchema = z
  .object({
    id: idSchema,
    phone_number: e164Schema.describe('the verified (or to be verified) number in E.164 form'),
    label: z.string().describe('a name for people'),
    method: z.enum(callerIdMethods).describe('how the code was sent'),
    status: z
      .enum(callerIdStatuses)
      .describe(`pending until the code is checked; verified: usable as \`from\` of calls; failed: ${maxVerificationAttempts} wrong codes, a new POST is needed`),
    attempts_remaining: z.int().min(0).max(maxVerificationAttempts).describe('wrong codes a pending caller ID still takes before it fails'),
    code_expires_at: timeSchema.nullable().describe(`when the code of a pending caller ID stops working (${verificationCodeLifetimeMinutes} minutes after it was sent); null otherwise`),
    verified_at: timeSchema.nullable().describe('when the number was verified; null until then'),
    created_at: timeSchema.describe('when the caller ID was added'),
    updated_at: timeSchema.describe('when it last changed'),
  })
  .meta({ id: 'CallerId' });
