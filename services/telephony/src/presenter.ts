// Records to the curated API messages: no carrier ids, credentials only as masked hints.
import { create } from '@bufbuild/protobuf';
import { toTimestamp } from '@voice/runtime/time';
import {
  A2pCampaignSchema,
  CarrierConnectionSchema,
  PhoneNumberSchema,
  SmsMessageSchema,
  SuppressionSchema,
} from '@voice/proto/voice/telephony/v1/telephony';
import { SipTrunkSchema } from '@voice/proto/voice/telephony/v1/sip_trunks';
import { CallerIdSchema } from '@voice/proto/voice/telephony/v1/caller_ids';
import { maxVerificationAttempts } from '@voice/contracts/telephony';
import { secretMask } from '@voice/contracts/telephony';
import type { CampaignRecord, ConnectionRecord, MessageRecord, NumberRecord, SipTrunkRecord, SuppressionRecord, CallerIdRecord } from './store/store.js';

/** What a bought number costs each month, and how long a month that could not be paid leaves it before it is released. */
export interface NumberTerms {
  monthlyUnits: number;
  graceMs: number;
}

/** When a past-due number is released unless its fee is paid first. */
export const releaseAt = (number: Pick<NumberRecord, 'renewsAt'>, terms: NumberTerms): Date => new Date(Date.parse(number.renewsAt!) + terms.graceMs);

export const presentNumber = (number: NumberRecord, terms: NumberTerms) =>
  create(PhoneNumberSchema, {
    id: number.id,
    number: number.number,
    country: number.country,
    source: number.source,
    smsCapable: number.smsCapable,
    voiceCapable: number.voiceCapable,
    smsOutboundEnabled: number.smsOutboundEnabled,
    carrierConnectionId: number.carrierConnectionId ?? undefined,
    a2pCampaignId: number.a2pCampaignId ?? undefined,
    name: number.name,
    assistantId: number.assistantId ?? undefined,
    billingStatus: number.pastDueSince ? 'past_due' : 'active',
    monthlyCreditUnits: BigInt(number.renewsAt ? terms.monthlyUnits : 0),
    nextRenewalAt: number.renewsAt ? toTimestamp(number.renewsAt) : undefined,
    releaseAt: number.pastDueSince ? toTimestamp(releaseAt(number, terms).toISOString()) : undefined,
    createdAt: toTimestamp(number.createdAt),
    updatedAt: toTimestamp(number.updatedAt),
  });

/** The mask and, for values long enough to keep a secret after it, their last four characters. */
export const credentialHint = (value: string): string => (value.length >= 12 ? `${secretMask}${value.slice(-4)}` : secretMask);

export const presentConnection = (connection: ConnectionRecord, accountSid: string) =>
  create(CarrierConnectionSchema, {
    id: connection.id,
    name: connection.name,
    provider: connection.provider,
    baseUrl: connection.baseUrl,
    accountSidHint: credentialHint(accountSid),
    authTokenHint: secretMask,
    createdAt: toTimestamp(connection.createdAt),
    updatedAt: toTimestamp(connection.updatedAt),
  });

export const presentSipTrunk = (trunk: SipTrunkRecord) =>
  create(SipTrunkSchema, {
    id: trunk.id,
    name: trunk.name,
    address: trunk.address,
    transport: trunk.transport,
    direction: trunk.direction,
    username: trunk.username,
    passwordHint: trunk.sealedPassword ? secretMask : '',
    numberIds: trunk.numberIds,
    createdAt: toTimestamp(trunk.createdAt),
    updatedAt: toTimestamp(trunk.updatedAt),
  });

export const presentCallerId = (callerId: CallerIdRecord) =>
  create(CallerIdSchema, {
    id: callerId.id,
    phoneNumber: callerId.phoneNumber,
    label: callerId.label,
    method: callerId.method,
    status: callerId.status,
    attemptsRemaining: callerId.status === 'pending' ? Math.max(0, maxVerificationAttempts - callerId.attempts) : 0,
    codeExpiresAt: callerId.status === 'pending' ? toTimestamp(callerId.codeExpiresAt) : undefined,
    verifiedAt: callerId.verifiedAt ? toTimestamp(callerId.verifiedAt) : undefined,
    createdAt: toTimestamp(callerId.createdAt),
    updatedAt: toTimestamp(callerId.updatedAt),
  });

export const presentCampaign = (campaign: CampaignRecord) =>
  create(A2pCampaignSchema, {
    id: campaign.id,
    name: campaign.name,
    carrierConnectionId: campaign.carrierConnectionId,
    useCase: campaign.useCase,
    description: campaign.description,
    sampleMessages: campaign.sampleMessages,
    status: campaign.status,
    rejectionReason: campaign.rejectionReason,
    createdAt: toTimestamp(campaign.createdAt),
    updatedAt: toTimestamp(campaign.updatedAt),
  });

export const presentSuppression = (entry: SuppressionRecord) =>
  create(SuppressionSchema, { id: entry.id, number: entry.number, reason: entry.reason, createdAt: toTimestamp(entry.createdAt) });

export const presentMessage = (message: MessageRecord) =>
  create(SmsMessageSchema, {
    id: message.id,
    // 'sending' never leaves the service: a message the carrier has not taken yet is queued.
    status: message.status === 'sending' ? 'queued' : message.status,
    fromNumberId: message.fromNumberId,
    from: message.from,
    to: message.to,
    body: message.body,
    segments: message.segments,
    encoding: message.encoding,
    creditUnits: BigInt(message.creditUnits),
    failureReason: message.failureReason,
    createdAt: toTimestamp(message.createdAt),
    updatedAt: toTimestamp(message.updatedAt),
  });
