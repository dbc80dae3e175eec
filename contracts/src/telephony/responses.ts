// The public JSON answers of telephony: numbers, carrier connections, A2P campaigns, suppressions and
// SMS, with credit prices as exact decimals, credentials only as masked hints, no carrier identifiers.
import { z } from 'zod';
import { creditsSchema, e164Schema, idSchema, timeSchema } from '../responses.js';
import { carrierProviders, messageStatuses } from './requests.js';

export const numberSources = ['marketplace', 'imported'] as const;

export const numberBillingStatuses = ['active', 'past_due'] as const;

export const campaignStatuses = ['pending', 'approved', 'rejected'] as const;

export const smsEncodings = ['GSM-7', 'UCS-2'] as const;

export const connectionFailures = ['authentication_failed', 'unreachable', 'unexpected_response'] as const;

export const countrySchema = z.string().describe('ISO 3166-1 alpha-2 country code, e.g. US');

export const phoneNumberSchema = z.object({
  id: idSchema,
  number: e164Schema,
  country: countrySchema,
  source: z.enum(numberSources).describe('marketplace: bought from the platform’s carrier; imported: held by the workspace’s own carrier account'),
  name: z.string(),
  sms_capable: z.boolean(),
  voice_capable: z.boolean(),
  sms_outbound_enabled: z.boolean().describe('whether the number may send SMS'),
  carrier_connection_id: idSchema.nullable().describe('the carrier connection of an imported number; null for marketplace numbers'),
  a2p_campaign_id: idSchema.nullable().describe('the A2P 10DLC campaign the number sends under, if any'),
  assistant_id: idSchema.nullable().describe('the assistant that answers the number, if any'),
  status: z
    .enum(numberBillingStatuses)
    .describe('past_due: the monthly fee due at next_renewal_at could not be paid; the number is released at release_at unless the wallet can pay it by then'),
  monthly_credits: creditsSchema.nullable().describe('the monthly fee in credits, charged at purchase and on each anniversary of it; null for imported numbers, which their carrier account pays for'),
  next_renewal_at: timeSchema.nullable().describe('when the next monthly fee is due (the same day of the month as the purchase, or the month’s last day); null for imported numbers'),
  release_at: timeSchema.nullable().describe('for a past_due number, when it goes back to the carrier unless the fee is paid first; otherwise null'),
  created_at: timeSchema.nullable(),
  updated_at: timeSchema.nullable(),
});

export const availableNumberSchema = z.object({
  number: e164Schema,
  country: countrySchema,
  sms_capable: z.boolean(),
  voice_capable: z.boolean(),
  monthly_credits: creditsSchema.describe('the monthly price in credits'),
});

export const carrierConnectionSchema = z.object({
  id: idSchema,
  name: z.string(),
  provider: z.enum(carrierProviders),
  base_url: z.string().nullable().describe('the Twilio-compatible API’s base URL; null for the sandbox'),
  account_sid: z.string().describe('masked: ••• followed by the last four characters (only ••• when shorter than 12); never the credential'),
  auth_token: z.string().describe('always the mask •••; never the credential'),
  created_at: timeSchema.nullable(),
  updated_at: timeSchema.nullable(),
});

export const connectionTestSchema = z.object({
  ok: z.boolean().describe('whether the carrier accepted the credentials'),
  failure: z.object({ code: z.enum(connectionFailures), message: z.string() }).nullable().describe('why not; null when ok'),
  duration_ms: z.int().min(0),
});

export const a2pCampaignSchema = z.object({
  id: idSchema,
  name: z.string(),
  carrier_connection_id: idSchema,
  use_case: z.string(),
  description: z.string(),
  sample_messages: z.array(z.string()),
  status: z.enum(campaignStatuses).describe('the carrier’s vetting: pending until it approves or rejects'),
  rejection_reason: z.string().nullable().describe('why the carrier rejected the campaign; null unless rejected'),
  created_at: timeSchema.nullable(),
  updated_at: timeSchema.nullable(),
});

export const suppressionSchema = z.object({
  id: idSchema,
  number: e164Schema.describe('the number never to contact, in E.164 form'),
  reason: z.string().nullable(),
  created_at: timeSchema.nullable(),
});

export const smsMessageSchema = z.object({
  id: idSchema,
  status: z.enum(messageStatuses).describe('queued → sent → delivered or failed'),
  from_number_id: idSchema.describe('the workspace’s phone number that sent it'),
  from: e164Schema,
  to: e164Schema,
  body: z.string(),
  segments: z.int().min(1).describe('the SMS segments the body takes (at most 10)'),
  encoding: z.enum(smsEncodings),
  credits: creditsSchema.describe('the price charged'),
  failure_reason: z.string().nullable().describe('why delivery failed; null unless failed'),
  created_at: timeSchema.nullable(),
  updated_at: timeSchema.nullable(),
});
