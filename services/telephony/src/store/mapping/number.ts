// A phone number's stored form (SQLite's row and MongoDB's document but for the id and the flags'
// type) and its mapping to and from the record.
import type { StoredValues } from '@voice/runtime/store';
import type { NumberRecord, NumberSource } from '../store.js';

export interface StoredNumber<Flag> {
  workspace_id: string;
  number: string;
  country: string;
  source: string;
  sms_capable: Flag;
  voice_capable: Flag;
  sms_outbound_enabled: Flag;
  carrier_connection_id: string | null;
  a2p_campaign_id: string | null;
  name: string;
  assistant_id: string | null;
  /** Absent on rows and documents stored before SIP trunks. */
  sip_trunk_id?: string | null;
  /** Absent on MongoDB documents stored before fees (see mongo/indexes.ts). */
  renews_at?: string | null;
  past_due_since?: string | null;
  created_at: string;
  updated_at: string;
}

export const storedNumber = <Flag>(n: NumberRecord, values: StoredValues<Flag, unknown>): StoredNumber<Flag> => ({
  workspace_id: n.workspaceId,
  number: n.number,
  country: n.country,
  source: n.source,
  sms_capable: values.flag(n.smsCapable),
  voice_capable: values.flag(n.voiceCapable),
  sms_outbound_enabled: values.flag(n.smsOutboundEnabled),
  carrier_connection_id: n.carrierConnectionId,
  a2p_campaign_id: n.a2pCampaignId,
  name: n.name,
  assistant_id: n.assistantId,
  sip_trunk_id: n.sipTrunkId,
  renews_at: n.renewsAt,
  past_due_since: n.pastDueSince,
  created_at: n.createdAt,
  updated_at: n.updatedAt,
});

export const numberFromStored = <Flag>(id: string, s: StoredNumber<Flag>, values: StoredValues<Flag, unknown>): NumberRecord => ({
  id,
  workspaceId: s.workspace_id,
  number: s.number,
  country: s.country,
  source: s.source as NumberSource,
  smsCapable: values.isSet(s.sms_capable),
  voiceCapable: values.isSet(s.voice_capable),
  smsOutboundEnabled: values.isSet(s.sms_outbound_enabled),
  carrierConnectionId: s.carrier_connection_id,
  a2pCampaignId: s.a2p_campaign_id,
  name: s.name,
  assistantId: s.assistant_id,
  sipTrunkId: s.sip_trunk_id ?? null,
  renewsAt: s.renews_at ?? null,
  pastDueSince: s.past_due_since ?? null,
  createdAt: s.created_at,
  updatedAt: s.updated_at,
});
