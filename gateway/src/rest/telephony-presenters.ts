// Public JSON shapes of the telephony API: snake_case, RFC 3339 times, credit prices as exact
// decimals, credentials only as masked hints, no carrier identifiers.
import { formatCredits, toIso } from '@voice/runtime';
import type {
  A2pCampaign,
  AvailableNumber,
  CarrierConnection,
  PhoneNumber,
  SmsMessage,
  Suppression,
} from '@voice/proto/voice/telephony/v1/telephony';

export const presentPhoneNumber = (number: PhoneNumber) => ({
  id: number.id,
  number: number.number,
  country: number.country,
  source: number.source,
  name: number.name,
  sms_capable: number.smsCapable,
  voice_capable: number.voiceCapable,
  sms_outbound_enabled: number.smsOutboundEnabled,
  carrier_connection_id: number.carrierConnectionId ?? null,
  a2p_campaign_id: number.a2pCampaignId ?? null,
  assistant_id: number.assistantId ?? null,
  created_at: toIso(number.createdAt),
  updated_at: toIso(number.updatedAt),
});

export const presentAvailableNumber = (number: AvailableNumber) => ({
  number: number.number,
  country: number.country,
  sms_capable: number.smsCapable,
  voice_capable: number.voiceCapable,
  monthly_credits: formatCredits(Number(number.monthlyCreditUnits)),
});

export const presentCarrierConnection = (connection: CarrierConnection) => ({
  id: connection.id,
  name: connection.name,
  provider: connection.provider,
  base_url: connection.baseUrl || null,
  account_sid: connection.accountSidHint,
  auth_token: connection.authTokenHint,
  created_at: toIso(connection.createdAt),
  updated_at: toIso(connection.updatedAt),
});

export const presentA2pCampaign = (campaign: A2pCampaign) => ({
  id: campaign.id,
  name: campaign.name,
  carrier_connection_id: campaign.carrierConnectionId,
  use_case: campaign.useCase,
  description: campaign.description,
  sample_messages: campaign.sampleMessages,
  status: campaign.status,
  rejection_reason: campaign.rejectionReason || null,
  created_at: toIso(campaign.createdAt),
  updated_at: toIso(campaign.updatedAt),
});

export const presentSuppression = (entry: Suppression) => ({
  id: entry.id,
  number: entry.number,
  reason: entry.reason || null,
  created_at: toIso(entry.createdAt),
});

export const presentSmsMessage = (message: SmsMessage) => ({
  id: message.id,
  status: message.status,
  from_number_id: message.fromNumberId,
  from: message.from,
  to: message.to,
  body: message.body,
  segments: message.segments,
  encoding: message.encoding,
  credits: formatCredits(Number(message.creditUnits)),
  failure_reason: message.failureReason || null,
  created_at: toIso(message.createdAt),
  updated_at: toIso(message.updatedAt),
});
