// A new lead of a campaign from validated input: its number already normalised to E.164.
import { newId } from '@voice/runtime/ids';
import type { LeadRecord, LeadVariables } from '../store/store.js';

export interface ValidLead {
  phone: string;
  name?: string;
  variables?: LeadVariables;
  time_zone?: string;
}

export const newLead = (workspaceId: string, campaignId: string, lead: ValidLead, at: string): LeadRecord => ({
  id: newId(),
  workspaceId,
  campaignId,
  phone: lead.phone,
  name: lead.name ?? '',
  variables: lead.variables ?? {},
  timeZone: lead.time_zone ?? null,
  status: 'pending',
  attempts: 0,
  callIds: [],
  createdAt: at,
  updatedAt: at,
});
