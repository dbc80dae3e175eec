// The curated public JSON of telephony's SMS messages and phone numbers, from the service's messages:
// what the API answers and what webhook events carry as their data, written once for both.
import type { z } from 'zod';
import { formatCredits } from '@voice/runtime/amounts';
import { toIso } from '@voice/runtime/time';
import type { PhoneNumber, SmsMessage } from '@voice/proto/voice/telephony/v1/telephony';
import { oneOf } from '../responses.js';
import { messageStatuses } from './requests.js';
import { numberBillingStatuses, numberSources, smsEncodings, type phoneNumberSchema, type smsMessageSchema } from './responses.js';

export const presentPhoneNumber = (number: PhoneNumber): z.infer<typeof phoneNumberSchema> => ({
  id: number.id,
  number: number.number,
  country: number.country,
  source: oneOf(numberSources, number.source),
  name: number.name,
  sms_capable: number.smsCapable,
  voice_capable: number.voiceCapable,
  sms_outbound_enabled: number.smsOutboundEnabled,
  carrier_connection_id: number.carrierConnectionId ?? null,
  a2p_campaign_id: number.a2pCampaignId ?? null,
  assistant_id: number.assistantId ?? null,
  status: oneOf(numberBillingStatuses, number.billingStatus),
  monthly_credits: number.nextRenewalAt ? formatCredits(Number(number.monthlyCreditUnits)) : null,
  next_renewal_at: toIso(number.nextRenewalAt),
  release_at: toIso(number.releaseAt),
  created_at: toIso(number.createdAt),
  updated_at: toIso(number.updatedAt),
});

export const presentSmsMessage = (message: SmsMessage): z.infer<typeof smsMessageSchema> => ({
  id: message.id,
  status: oneOf(messageStatuses, message.status),
  from_number_id: message.fromNumberId,
  from: message.from,
  to: message.to,
  body: message.body,
  segments: message.segments,
  encoding: oneOf(smsEncodings, message.encoding),
  credits: formatCredits(Number(message.creditUnits)),
  failure_reason: message.failureReason || null,
  created_at: toIso(message.createdAt),
  updated_at: toIso(message.updatedAt),
});
