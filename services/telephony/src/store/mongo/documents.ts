// The MongoDB store's document shapes, the collections that hold them, and their mapping to the store's records.
import type { Collection, Db } from 'mongodb';
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

export interface NumberDocument {
  _id: string;
  workspace_id: string;
  number: string;
  country: string;
  source: string;
  sms_capable: boolean;
  voice_capable: boolean;
  sms_outbound_enabled: boolean;
  carrier_connection_id: string | null;
  a2p_campaign_id: string | null;
  name: string;
  assistant_id: string | null;
  /** Absent on numbers stored before fees (see indexes.ts). */
  renews_at?: string | null;
  past_due_since?: string | null;
  created_at: string;
  updated_at: string;
}

export interface ConnectionDocument {
  _id: string;
  workspace_id: string;
  name: string;
  provider: string;
  base_url: string;
  sealed_account_sid: string;
  sealed_auth_token: string;
  created_at: string;
  updated_at: string;
}

export interface CampaignDocument {
  _id: string;
  workspace_id: string;
  name: string;
  carrier_connection_id: string;
  use_case: string;
  description: string;
  sample_messages: string[];
  status: string;
  rejection_reason: string;
  created_at: string;
  updated_at: string;
}

export interface SuppressionDocument {
  _id: string;
  workspace_id: string;
  number: string;
  reason: string;
  created_at: string;
}

export interface MessageDocument {
  _id: string;
  workspace_id: string;
  from_number_id: string;
  from: string;
  to: string;
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

/** _id is `${workspace_id}:${key}`. */
export interface ClaimDocument {
  _id: string;
  workspace_id: string;
  key: string;
  fingerprint: string;
  message_id: string;
  created_at: string;
  /** The message as accepted: what a replay answers. */
  first_response?: MessageDocument;
}

export interface Collections {
  numbers: Collection<NumberDocument>;
  connections: Collection<ConnectionDocument>;
  campaigns: Collection<CampaignDocument>;
  suppressions: Collection<SuppressionDocument>;
  messages: Collection<MessageDocument>;
  claims: Collection<ClaimDocument>;
}

export const telephonyCollections = (db: Db): Collections => ({
  numbers: db.collection<NumberDocument>('phone_numbers'),
  connections: db.collection<ConnectionDocument>('carrier_connections'),
  campaigns: db.collection<CampaignDocument>('a2p_campaigns'),
  suppressions: db.collection<SuppressionDocument>('suppressions'),
  messages: db.collection<MessageDocument>('sms_messages'),
  claims: db.collection<ClaimDocument>('send_claims'),
});

export const numberDocument = (n: NumberRecord): NumberDocument => ({
  _id: n.id,
  workspace_id: n.workspaceId,
  number: n.number,
  country: n.country,
  source: n.source,
  sms_capable: n.smsCapable,
  voice_capable: n.voiceCapable,
  sms_outbound_enabled: n.smsOutboundEnabled,
  carrier_connection_id: n.carrierConnectionId,
  a2p_campaign_id: n.a2pCampaignId,
  name: n.name,
  assistant_id: n.assistantId,
  renews_at: n.renewsAt,
  past_due_since: n.pastDueSince,
  created_at: n.createdAt,
  updated_at: n.updatedAt,
});

export const numberRecord = (d: NumberDocument): NumberRecord => ({
  id: d._id,
  workspaceId: d.workspace_id,
  number: d.number,
  country: d.country,
  source: d.source as NumberSource,
  smsCapable: d.sms_capable,
  voiceCapable: d.voice_capable,
  smsOutboundEnabled: d.sms_outbound_enabled,
  carrierConnectionId: d.carrier_connection_id,
  a2pCampaignId: d.a2p_campaign_id,
  name: d.name,
  assistantId: d.assistant_id,
  renewsAt: d.renews_at ?? null,
  pastDueSince: d.past_due_since ?? null,
  createdAt: d.created_at,
  updatedAt: d.updated_at,
});

export const connectionDocument = (c: ConnectionRecord): ConnectionDocument => ({
  _id: c.id,
  workspace_id: c.workspaceId,
  name: c.name,
  provider: c.provider,
  base_url: c.baseUrl,
  sealed_account_sid: c.sealedAccountSid,
  sealed_auth_token: c.sealedAuthToken,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

export const connectionRecord = (d: ConnectionDocument): ConnectionRecord => ({
  id: d._id,
  workspaceId: d.workspace_id,
  name: d.name,
  provider: d.provider as CarrierProvider,
  baseUrl: d.base_url,
  sealedAccountSid: d.sealed_account_sid,
  sealedAuthToken: d.sealed_auth_token,
  createdAt: d.created_at,
  updatedAt: d.updated_at,
});

export const campaignDocument = (c: CampaignRecord): CampaignDocument => ({
  _id: c.id,
  workspace_id: c.workspaceId,
  name: c.name,
  carrier_connection_id: c.carrierConnectionId,
  use_case: c.useCase,
  description: c.description,
  sample_messages: [...c.sampleMessages],
  status: c.status,
  rejection_reason: c.rejectionReason,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

export const campaignRecord = (d: CampaignDocument): CampaignRecord => ({
  id: d._id,
  workspaceId: d.workspace_id,
  name: d.name,
  carrierConnectionId: d.carrier_connection_id,
  useCase: d.use_case,
  description: d.description,
  sampleMessages: d.sample_messages,
  status: d.status as CampaignStatus,
  rejectionReason: d.rejection_reason,
  createdAt: d.created_at,
  updatedAt: d.updated_at,
});

export const suppressionDocument = (s: SuppressionRecord): SuppressionDocument => ({
  _id: s.id,
  workspace_id: s.workspaceId,
  number: s.number,
  reason: s.reason,
  created_at: s.createdAt,
});

export const suppressionRecord = (d: SuppressionDocument): SuppressionRecord => ({
  id: d._id,
  workspaceId: d.workspace_id,
  number: d.number,
  reason: d.reason,
  createdAt: d.created_at,
});

export const messageDocument = (m: MessageRecord): MessageDocument => ({
  _id: m.id,
  workspace_id: m.workspaceId,
  from_number_id: m.fromNumberId,
  from: m.from,
  to: m.to,
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

export const messageRecord = (d: MessageDocument): MessageRecord => ({
  id: d._id,
  workspaceId: d.workspace_id,
  fromNumberId: d.from_number_id,
  from: d.from,
  to: d.to,
  body: d.body,
  segments: d.segments,
  encoding: d.encoding as MessageRecord['encoding'],
  creditUnits: d.credit_units,
  status: d.status as MessageStatus,
  failureReason: d.failure_reason,
  carrierConnectionId: d.carrier_connection_id,
  carrierMessageId: d.carrier_message_id,
  createdAt: d.created_at,
  updatedAt: d.updated_at,
});
