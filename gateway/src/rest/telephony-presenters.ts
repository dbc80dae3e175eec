// Telephony's answers as public JSON: snake_case, RFC 3339 times, credit prices as exact decimals,
// credentials only as masked hints, no carrier identifiers. Each presenter is typed by its schema in
// @voice/contracts/telephony.
import type { z } from 'zod';
import { formatCredits } from '@voice/runtime/amounts';
import { toIso } from '@voice/runtime/time';
import type {
  A2pCampaign,
  AvailableNumber,
  CarrierConnection,
  PhoneNumber,
  SmsMessage,
  Suppression,
  TestCarrierConnectionResponse,
} from '@voice/proto/voice/telephony/v1/telephony';
import { type a2pCampaignSchema, type availableNumberSchema, campaignStatuses, type carrierConnectionSchema, carrierProviders, connectionFailures, type connectionTestSchema, messageStatuses, numberBillingStatuses, numberSources, type phoneNumberSchema, smsEncodings, type smsMessageSchema, type suppressionSchema } from '@voice/contracts/telephony';
import { oneOf } from '@voice/contracts/responses';

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

export const presentAvailableNumber = (number: AvailableNumber): z.infer<typeof availableNumberSchema> => ({
  number: number.number,
  country: number.country,
  sms_capable: number.smsCapable,
  voice_capable: number.voiceCapable,
  monthly_credits: formatCredits(Number(number.monthlyCreditUnits)),
});

export const presentCarrierConnection = (connection: CarrierConnection): z.infer<typeof carrierConnectionSchema> => ({
  id: connection.id,
  name: connection.name,
  provider: oneOf(carrierProviders, connection.provider),
  base_url: connection.baseUrl || null,
  account_sid: connection.accountSidHint,
  auth_token: connection.authTokenHint,
  created_at: toIso(connection.createdAt),
  updated_at: toIso(connection.updatedAt),
});

export const presentConnectionTest = (answer: TestCarrierConnectionResponse): z.infer<typeof connectionTestSchema> => ({
  ok: answer.ok,
  failure: answer.ok ? null : { code: oneOf(connectionFailures, answer.failure), message: answer.message },
  duration_ms: answer.durationMs,
});

export const presentA2pCampaign = (campaign: A2pCampaign): z.infer<typeof a2pCampaignSchema> => ({
  id: campaign.id,
  name: campaign.name,
  carrier_connection_id: campaign.carrierConnectionId,
  use_case: campaign.useCase,
  description: campaign.description,
  sample_messages: campaign.sampleMessages,
  status: oneOf(campaignStatuses, campaign.status),
  rejection_reason: campaign.rejectionReason || null,
  created_at: toIso(campaign.createdAt),
  updated_at: toIso(campaign.updatedAt),
});

export const presentSuppression = (entry: Suppression): z.infer<typeof suppressionSchema> => ({
  id: entry.id,
  number: entry.number,
  reason: entry.reason || null,
  created_at: toIso(entry.createdAt),
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
