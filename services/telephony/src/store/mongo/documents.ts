// The MongoDB store's documents: each entity's stored form (store/mapping) with its _id, flags and
// lists as they are; the collections that hold them.
import type { Collection, Db } from 'mongodb';
import { mongoValues } from '@voice/runtime/store';
import type { CallLegRecord, CampaignRecord, ConnectionRecord, DeliveryUpdate, MessageRecord, NumberRecord, SipTrunkRecord, SuppressionRecord, CallerIdRecord } from '../store.js';
import { callLegFromStored, storedCallLeg, type StoredCallLeg } from '../mapping/call-leg.js';
import { campaignFromStored, storedCampaign, type StoredCampaign } from '../mapping/campaign.js';
import { connectionFromStored, storedConnection, type StoredConnection } from '../mapping/connection.js';
import { messageFromStored, storedMessage, type StoredMessage } from '../mapping/message.js';
import { numberFromStored, storedNumber, type StoredNumber } from '../mapping/number.js';
import { callerIdFromStored, storedCallerId, type StoredCallerId } from '../mapping/caller-id.js';
import { sipTrunkFromStored, storedSipTrunk, type StoredSipTrunk } from '../mapping/sip-trunk.js';
import { storedSuppression, suppressionFromStored, type StoredSuppression } from '../mapping/suppression.js';

type Document<Stored> = Stored & { _id: string };

export type NumberDocument = Document<StoredNumber<boolean>>;
export type ConnectionDocument = Document<StoredConnection>;
export type CallerIdDocument = Document<StoredCallerId>;
export type SipTrunkDocument = Document<StoredSipTrunk>;
export type CampaignDocument = Document<StoredCampaign<string[]>>;
export type SuppressionDocument = Document<StoredSuppression>;
export type MessageDocument = Document<StoredMessage> & { from: string; to: string };
export type CallLegDocument = Document<StoredCallLeg>;

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

/** Delivery reports for a carrier id no message held yet; _id is `${carrier_connection_id ?? ''}:${carrier_message_id}`. */
export interface EarlyReportDocument {
  _id: string;
  received_at: string;
  reports: { status: DeliveryUpdate['status']; failure_reason: string; at: string }[];
}

export interface Collections {
  numbers: Collection<NumberDocument>;
  connections: Collection<ConnectionDocument>;
  campaigns: Collection<CampaignDocument>;
  sipTrunks: Collection<SipTrunkDocument>;
  callerIds: Collection<CallerIdDocument>;
  suppressions: Collection<SuppressionDocument>;
  messages: Collection<MessageDocument>;
  claims: Collection<ClaimDocument>;
  earlyReports: Collection<EarlyReportDocument>;
  callLegs: Collection<CallLegDocument>;
}

export const telephonyCollections = (db: Db): Collections => ({
  numbers: db.collection<NumberDocument>('phone_numbers'),
  connections: db.collection<ConnectionDocument>('carrier_connections'),
  campaigns: db.collection<CampaignDocument>('a2p_campaigns'),
  sipTrunks: db.collection<SipTrunkDocument>('sip_trunks'),
  callerIds: db.collection<CallerIdDocument>('caller_ids'),
  suppressions: db.collection<SuppressionDocument>('suppressions'),
  messages: db.collection<MessageDocument>('sms_messages'),
  claims: db.collection<ClaimDocument>('send_claims'),
  earlyReports: db.collection<EarlyReportDocument>('sms_early_reports'),
  callLegs: db.collection<CallLegDocument>('call_legs'),
});

export const numberDocument = (n: NumberRecord): NumberDocument => ({ _id: n.id, ...storedNumber(n, mongoValues) });
export const numberRecord = (d: NumberDocument): NumberRecord => numberFromStored(d._id, d, mongoValues);

export const connectionDocument = (c: ConnectionRecord): ConnectionDocument => ({ _id: c.id, ...storedConnection(c) });
export const connectionRecord = (d: ConnectionDocument): ConnectionRecord => connectionFromStored(d._id, d);

export const callerIdDocument = (c: CallerIdRecord): CallerIdDocument => ({ _id: c.id, ...storedCallerId(c) });
export const callerIdRecord = (d: CallerIdDocument): CallerIdRecord => callerIdFromStored(d._id, d);

export const sipTrunkDocument = (t: SipTrunkRecord): SipTrunkDocument => ({ _id: t.id, ...storedSipTrunk(t) });
export const sipTrunkRecord = (d: SipTrunkDocument, numberIds: string[]): SipTrunkRecord => sipTrunkFromStored(d._id, d, numberIds);

export const campaignDocument = (c: CampaignRecord): CampaignDocument => ({ _id: c.id, ...storedCampaign(c, mongoValues) });
export const campaignRecord = (d: CampaignDocument): CampaignRecord => campaignFromStored(d._id, d, mongoValues);

export const suppressionDocument = (s: SuppressionRecord): SuppressionDocument => ({ _id: s.id, ...storedSuppression(s) });
export const suppressionRecord = (d: SuppressionDocument): SuppressionRecord => suppressionFromStored(d._id, d);

export const messageDocument = (m: MessageRecord): MessageDocument => ({ _id: m.id, from: m.from, to: m.to, ...storedMessage(m) });
export const messageRecord = (d: MessageDocument): MessageRecord => messageFromStored({ id: d._id, from: d.from, to: d.to }, d);

export const callLegDocument = (l: CallLegRecord): CallLegDocument => ({ _id: l.id, ...storedCallLeg(l) });
export const callLegRecord = (d: CallLegDocument): CallLegRecord => callLegFromStored(d._id, d);
