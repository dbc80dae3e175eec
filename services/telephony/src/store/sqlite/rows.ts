// The SQLite store's row shapes and their mapping to and from the store's records.
import type {
  CampaignRecord,
  CampaignStatus,
  CarrierProvider,
  ConnectionRecord,
  MessageRecord,
  MessageStatus,
  NumberRecord,
  NumberSource,
  SuppressionRecord,
} from '../store.js';

export interface NumberRow {
  id: string;
  workspace_id: string;
  number: string;
  country: string;
  source: string;
  sms_capable: number;
  voice_capable: number;
  sms_outbound_enabled: number;
  carrier_connection_id: string | null;
  a2p_campaign_id: string | null;
  name: string;
  assistant_id: string | null;
  renews_at: string | null;
  past_due_since: string | null;
  created_at: string;
  updated_at: string;
}

export const numberRow = (n: NumberRecord): NumberRow => ({
  id: n.id,
  workspace_id: n.workspaceId,
  number: n.number,
  country: n.country,
  source: n.source,
  sms_capable: n.smsCapable ? 1 : 0,
  voice_capable: n.voiceCapable ? 1 : 0,
  sms_outbound_enabled: n.smsOutboundEnabled ? 1 : 0,
  carrier_connection_id: n.carrierConnectionId,
  a2p_campaign_id: n.a2pCampaignId,
  name: n.name,
  assistant_id: n.assistantId,
  renews_at: n.renewsAt,
  past_due_since: n.pastDueSince,
  created_at: n.createdAt,
  updated_at: n.updatedAt,
});

export const numberFromRow = (r: NumberRow): NumberRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  number: r.number,
  country: r.country,
  source: r.source as NumberSource,
  smsCapable: r.sms_capable === 1,
  voiceCapable: r.voice_capable === 1,
  smsOutboundEnabled: r.sms_outbound_enabled === 1,
  carrierConnectionId: r.carrier_connection_id,
  a2pCampaignId: r.a2p_campaign_id,
  name: r.name,
  assistantId: r.assistant_id,
  renewsAt: r.renews_at,
  pastDueSince: r.past_due_since,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface ConnectionRow {
  id: string;
  workspace_id: string;
  name: string;
  provider: string;
  base_url: string;
  sealed_account_sid: string;
  sealed_auth_token: string;
  created_at: string;
  updated_at: string;
}

export const connectionRow = (c: ConnectionRecord): ConnectionRow => ({
  id: c.id,
  workspace_id: c.workspaceId,
  name: c.name,
  provider: c.provider,
  base_url: c.baseUrl,
  sealed_account_sid: c.sealedAccountSid,
  sealed_auth_token: c.sealedAuthToken,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

export const connectionFromRow = (r: ConnectionRow): ConnectionRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  name: r.name,
  provider: r.provider as CarrierProvider,
  baseUrl: r.base_url,
  sealedAccountSid: r.sealed_account_sid,
  sealedAuthToken: r.sealed_auth_token,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface CampaignRow {
  id: string;
  workspace_id: string;
  name: string;
  carrier_connection_id: string;
  use_case: string;
  description: string;
  /** JSON array of strings. */
  sample_messages: string;
  status: string;
  rejection_reason: string;
  created_at: string;
  updated_at: string;
}

export const campaignRow = (c: CampaignRecord): CampaignRow => ({
  id: c.id,
  workspace_id: c.workspaceId,
  name: c.name,
  carrier_connection_id: c.carrierConnectionId,
  use_case: c.useCase,
  description: c.description,
  sample_messages: JSON.stringify(c.sampleMessages),
  status: c.status,
  rejection_reason: c.rejectionReason,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

export const campaignFromRow = (r: CampaignRow): CampaignRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  name: r.name,
  carrierConnectionId: r.carrier_connection_id,
  useCase: r.use_case,
  description: r.description,
  sampleMessages: JSON.parse(r.sample_messages) as string[],
  status: r.status as CampaignStatus,
  rejectionReason: r.rejection_reason,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface SuppressionRow {
  id: string;
  workspace_id: string;
  number: string;
  reason: string;
  created_at: string;
}

export const suppressionRow = (s: SuppressionRecord): SuppressionRow => ({
  id: s.id,
  workspace_id: s.workspaceId,
  number: s.number,
  reason: s.reason,
  created_at: s.createdAt,
});

export const suppressionFromRow = (r: SuppressionRow): SuppressionRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  number: r.number,
  reason: r.reason,
  createdAt: r.created_at,
});

export interface MessageRow {
  id: string;
  workspace_id: string;
  from_number_id: string;
  from_number: string;
  to_number: string;
  body: string;
  segments: number;
  encoding: string;
  credit_units: number;
  status: string;
  failure_reason: string;
  carrier_connection_id: string | null;
  carrier_message_id: string | null;
  created_at: string;
  updated_at: string;
}

export const messageRow = (m: MessageRecord): MessageRow => ({
  id: m.id,
  workspace_id: m.workspaceId,
  from_number_id: m.fromNumberId,
  from_number: m.from,
  to_number: m.to,
  body: m.body,
  segments: m.segments,
  encoding: m.encoding,
  credit_units: m.creditUnits,
  status: m.status,
  failure_reason: m.failureReason,
  carrier_connection_id: m.carrierConnectionId,
  carrier_message_id: m.carrierMessageId,
  created_at: m.createdAt,
  updated_at: m.updatedAt,
});

export const messageFromRow = (r: MessageRow): MessageRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  fromNumberId: r.from_number_id,
  from: r.from_number,
  to: r.to_number,
  body: r.body,
  segments: r.segments,
  encoding: r.encoding as MessageRecord['encoding'],
  creditUnits: r.credit_units,
  status: r.status as MessageStatus,
  failureReason: r.failure_reason,
  carrierConnectionId: r.carrier_connection_id,
  carrierMessageId: r.carrier_message_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
