// The SQLite store's rows: each entity's stored form (store/mapping) with its id, flags as 0/1 and
// lists as JSON text.
import { sqliteValues } from '@voice/runtime/store';
import type { CallLegRecord, CampaignRecord, ConnectionRecord, MessageRecord, NumberRecord, SipTrunkRecord, SuppressionRecord, CallerIdRecord } from '../store.js';
import { campaignFromStored, storedCampaign, type StoredCampaign } from '../mapping/campaign.js';
import { connectionFromStored, storedConnection, type StoredConnection } from '../mapping/connection.js';
import { messageFromStored, storedMessage, type StoredMessage } from '../mapping/message.js';
import { numberFromStored, storedNumber, type StoredNumber } from '../mapping/number.js';
import { callLegFromStored, storedCallLeg, type StoredCallLeg } from '../mapping/call-leg.js';
import { callerIdFromStored, storedCallerId, type StoredCallerId } from '../mapping/caller-id.js';
import { sipTrunkFromStored, storedSipTrunk, type StoredSipTrunk } from '../mapping/sip-trunk.js';
import { storedSuppression, suppressionFromStored, type StoredSuppression } from '../mapping/suppression.js';

type Row<Stored> = Stored & { id: string };

export type NumberRow = Row<StoredNumber<number>>;
export const numberRow = (n: NumberRecord): NumberRow => ({ id: n.id, ...storedNumber(n, sqliteValues) });
export const numberFromRow = (r: NumberRow): NumberRecord => numberFromStored(r.id, r, sqliteValues);

export type ConnectionRow = Row<StoredConnection>;
export const connectionRow = (c: ConnectionRecord): ConnectionRow => ({ id: c.id, ...storedConnection(c) });
export const connectionFromRow = (r: ConnectionRow): ConnectionRecord => connectionFromStored(r.id, r);

export type CallerIdRow = Row<StoredCallerId>;
export const callerIdRow = (c: CallerIdRecord): CallerIdRow => ({ id: c.id, ...storedCallerId(c) });
export const callerIdFromRow = (r: CallerIdRow): CallerIdRecord => callerIdFromStored(r.id, r);

export type SipTrunkRow = Row<StoredSipTrunk>;
export const sipTrunkRow = (t: SipTrunkRecord): SipTrunkRow => ({ id: t.id, ...storedSipTrunk(t) });
export const sipTrunkFromRow = (r: SipTrunkRow, numberIds: string[]): SipTrunkRecord => sipTrunkFromStored(r.id, r, numberIds);

export type CampaignRow = Row<StoredCampaign<string>>;
export const campaignRow = (c: CampaignRecord): CampaignRow => ({ id: c.id, ...storedCampaign(c, sqliteValues) });
export const campaignFromRow = (r: CampaignRow): CampaignRecord => campaignFromStored(r.id, r, sqliteValues);

export type SuppressionRow = Row<StoredSuppression>;
export const suppressionRow = (s: SuppressionRecord): SuppressionRow => ({ id: s.id, ...storedSuppression(s) });
export const suppressionFromRow = (r: SuppressionRow): SuppressionRecord => suppressionFromStored(r.id, r);

/** `from` and `to` are SQL keywords, so the columns say from_number and to_number. */
export type MessageRow = Row<StoredMessage> & { from_number: string; to_number: string };
export const messageRow = (m: MessageRecord): MessageRow => ({ id: m.id, from_number: m.from, to_number: m.to, ...storedMessage(m) });
export const messageFromRow = (r: MessageRow): MessageRecord => messageFromStored({ id: r.id, from: r.from_number, to: r.to_number }, r);

export type CallLegRow = Row<StoredCallLeg>;
export const callLegRow = (l: CallLegRecord): CallLegRow => ({ id: l.id, ...storedCallLeg(l) });
export const callLegFromRow = (r: CallLegRow): CallLegRecord => callLegFromStored(r.id, r);
