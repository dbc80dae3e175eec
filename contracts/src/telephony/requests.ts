// Request schemas of the telephony API, shared by the gateway (REST validation) and the
// service (its own RPC boundary), so both refuse the same input with the same field names.
import { z } from 'zod';
import { isHttpUrlWithoutCredentials, pageQueryFields } from '@voice/runtime/validation';
import { secretMask } from '../secret-mask.js';
import { idField } from '../responses.js';
import { parseE164 } from './phone.js';
import { segmentSms, tooLongIssue } from './segments.js';

export { secretMask };

export const carrierProviders = ['twilio', 'sandbox'] as const;
export const messageStatuses = ['queued', 'sent', 'delivered', 'failed'] as const;

export const phoneNumberField = z
  .string()
  .max(32, 'must be at most 32 characters')
  .refine((value) => parseE164(value) !== undefined, 'must be a valid phone number in international format with a leading +');

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** A credential as sent: never the mask where nothing can be kept. */
const credential = (max: number) => text(max).refine((value) => value !== secretMask, 'must be the credential itself');

const smsBody = z
  .string()
  .min(1, 'must not be empty')
  // Ten segments never hold more than 1530 characters: longer bodies are refused before counting.
  .max(1600, 'must be at most 1600 characters')
  .superRefine((body, context) => {
    const issue = tooLongIssue(segmentSms(body));
    if (issue) context.addIssue({ code: 'custom', message: issue });
  });

export const sendSmsBodySchema = z.strictObject({
  from_number_id: idField,
  to: phoneNumberField,
  body: smsBody,
});

export const searchNumbersQuerySchema = z.strictObject({
  country: z.string().regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code').transform((code) => code.toUpperCase()),
  area_code: z.string().regex(/^\d{2,5}$/, 'must be 2 to 5 digits').optional(),
  ...pageQueryFields,
});

export const buyNumberBodySchema = z.strictObject({ number: phoneNumberField });

export const importNumberBodySchema = z.strictObject({ number: phoneNumberField, carrier_connection_id: idField });

export const updateNumberBodySchema = z.strictObject({
  sms_outbound_enabled: z.boolean().optional(),
  name: z.string().trim().max(100, 'must be at most 100 characters').optional(),
  assistant_id: idField.nullable().optional(),
  a2p_campaign_id: idField.nullable().optional(),
});

const baseUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .refine(isHttpUrlWithoutCredentials, 'must be an http or https URL without credentials');

export const createConnectionBodySchema = z
  .strictObject({
    name: text(100),
    provider: z.enum(carrierProviders),
    base_url: baseUrl.optional(),
    account_sid: credential(128),
    auth_token: credential(256),
  })
  .refine((body) => body.provider !== 'sandbox' || body.base_url === undefined, {
    message: 'the sandbox carrier takes no base_url',
    path: ['base_url'],
  });

export const updateConnectionBodySchema = z.strictObject({
  name: text(100).optional(),
  base_url: baseUrl.optional(),
  account_sid: text(128).optional(),
  auth_token: text(256).optional(),
});

export const createCampaignBodySchema = z.strictObject({
  name: text(100),
  carrier_connection_id: idField,
  use_case: text(64),
  description: text(4096),
  sample_messages: z.array(text(1024)).max(5, 'must hold at most 5 messages').default([]),
});

export const addSuppressionBodySchema = z.strictObject({
  number: phoneNumberField,
  reason: z.string().trim().max(500, 'must be at most 500 characters').optional(),
});

export const listMessagesQuerySchema = z.strictObject({
  status: z.enum(messageStatuses).optional(),
  ...pageQueryFields,
});

export type SendSmsBody = z.output<typeof sendSmsBodySchema>;
