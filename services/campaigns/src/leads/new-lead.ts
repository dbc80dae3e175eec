// A new lead of a campaign from validated input: its number already normalised to E.164, its time
// zone the one given, else the one its number's prefix names (see number-time-zone.ts), else none.
import { newId } from '@voice/runtime/ids';
import { derivedTimeZone } from '../domain/number-time-zones/number-time-zone.js';
import type { LeadRecord, LeadVariables } from '../store/store.js';

export interface ValidLead {
  phone: string;
  name?: string;
  variables?: LeadVariables;
  time_zone?: string;
}

export function newLead(workspaceId: string, campaignId: string, lead: ValidLead, at: string): LeadRecord {
  const derived = lead.time_zone === undefined ? derivedTimeZone(lead.phone) : null;
  return {
  id: newId(),
  workspaceId,
  campaignId,
  phone: lead.phone,
  name: lead.name ?? '',
  variables: lead.variables ?? {},
  timeZone: lead.time_zone ?? derived,
  timeZoneSource: lead.time_zone !== undefined ? 'given' : derived ? 'derived' : null,
  status: 'pending',
  attempts: 0,
  callIds: [],
  createdAt: at,
  updatedAt: at,
  };
}
