// An A2P campaign's stored form (SQLite's row and MongoDB's document but for the id and the sample
// messages' type) and its mapping to and from the record.
import type { StoredValues } from '@voice/runtime/store';
import type { CampaignRecord, CampaignStatus } from '../store.js';

export interface StoredCampaign<List> {
  workspace_id: string;
  name: string;
  carrier_connection_id: string;
  use_case: string;
  description: string;
  sample_messages: List;
  status: string;
  rejection_reason: string;
  created_at: string;
  updated_at: string;
}

export const storedCampaign = <List>(c: CampaignRecord, values: StoredValues<unknown, List>): StoredCampaign<List> => ({
  workspace_id: c.workspaceId,
  name: c.name,
  carrier_connection_id: c.carrierConnectionId,
  use_case: c.useCase,
  description: c.description,
  sample_messages: values.list(c.sampleMessages),
  status: c.status,
  rejection_reason: c.rejectionReason,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

export const campaignFromStored = <List>(id: string, s: StoredCampaign<List>, values: StoredValues<unknown, List>): CampaignRecord => ({
  id,
  workspaceId: s.workspace_id,
  name: s.name,
  carrierConnectionId: s.carrier_connection_id,
  useCase: s.use_case,
  description: s.description,
  sampleMessages: values.items(s.sample_messages),
  status: s.status as CampaignStatus,
  rejectionReason: s.rejection_reason,
  createdAt: s.created_at,
  updatedAt: s.updated_at,
});
