// Telephony's answers as public JSON: snake_case, RFC 3339 times, credit prices as exact decimals,
// credentials only as masked hints, no carrier identifiers. Each presenter is typed by its schema in
// @voice/contracts/telephony; numbers' and messages' are in @voice/contracts/telephony-presenters (webhook events carry them too).
import type { z } from 'zod';
import { formatCredits } from '@voice/runtime/amounts';
import { toIso } from '@voice/runtime/time';
import type { A2pCampaign, AvailableNumber, CarrierConnection, Suppression, TestCarrierConnectionResponse } from '@voice/proto/voice/telephony/v1/telephony';
import { type a2pCampaignSchema, type availableNumberSchema, campaignStatuses, type carrierConnectionSchema, carrierProviders, connectionFailures, type connectionTestSchema, type suppressionSchema } from '@voice/contracts/telephony';
import { oneOf } from '@voice/contracts/responses';

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

