// A lead's stored form (SQLite's row and MongoDB's document but for the id and the encoding of its
// variables and call ids) and its mapping to and from the record.
import type { StoredValues } from '@voice/runtime/store';
import type { LeadStatus, LeadTimeZoneSource } from '@voice/contracts/campaigns';
import type { LeadRecord, LeadVariables } from '../store.js';
import type { StoredJson } from './json.js';

export interface StoredLead<Json, List> {
  workspace_id: string;
  campaign_id: string;
  phone: string;
  name: string;
  variables: Json;
  time_zone: string | null;
  /** Absent from leads stored before zones were derived. */
  time_zone_source?: string | null;
  status: string;
  attempts: number;
  call_ids: List;
  created_at: string;
  updated_at: string;
}

export const storedLead = <Json, List>(lead: LeadRecord, json: StoredJson<Json>, values: StoredValues<unknown, List>): StoredLead<Json, List> => ({
  workspace_id: lead.workspaceId,
  campaign_id: lead.campaignId,
  phone: lead.phone,
  name: lead.name,
  variables: json.encode(lead.variables),
  time_zone: lead.timeZone,
  time_zone_source: lead.timeZoneSource,
  status: lead.status,
  attempts: lead.attempts,
  call_ids: values.list(lead.callIds),
  created_at: lead.createdAt,
  updated_at: lead.updatedAt,
});

export const leadFromStored = <Json, List>(id: string, stored: StoredLead<Json, List>, json: StoredJson<Json>, values: StoredValues<unknown, List>): LeadRecord => ({
  id,
  workspaceId: stored.workspace_id,
  campaignId: stored.campaign_id,
  phone: stored.phone,
  name: stored.name,
  variables: json.decode<LeadVariables>(stored.variables),
  timeZone: stored.time_zone,
  // A zone stored before sources were recorded was given: nothing derived one then.
  timeZoneSource: (stored.time_zone_source ?? (stored.time_zone ? 'given' : null)) as LeadTimeZoneSource | null,
  status: stored.status as LeadStatus,
  attempts: stored.attempts,
  callIds: values.items(stored.call_ids),
  createdAt: stored.created_at,
  updatedAt: stored.updated_at,
});
