// A2P campaigns in MongoDB; a carrier's verdict changes only a pending campaign of its connection.
import type { Page } from '@voice/runtime/validation';
import type { CampaignRecord, CampaignStore } from '../store.js';
import { campaignDocument, campaignRecord } from './documents.js';
import { findPage, type MongoContext } from './part.js';

export function mongoCampaignStore({ collections }: MongoContext): CampaignStore {
  return {
    async insertCampaign(campaign: CampaignRecord): Promise<CampaignRecord> {
      await collections.campaigns.insertOne(campaignDocument(campaign));
      return campaign;
    },

    async getCampaign(workspaceId: string, id: string): Promise<CampaignRecord | undefined> {
      const doc = await collections.campaigns.findOne({ _id: id, workspace_id: workspaceId });
      return doc ? campaignRecord(doc) : undefined;
    },

    async listCampaigns(workspaceId: string, page: Page): Promise<{ campaigns: CampaignRecord[]; total: number }> {
      const { docs, total } = await findPage(collections.campaigns, { workspace_id: workspaceId }, page);
      return { campaigns: docs.map(campaignRecord), total };
    },

    async setCampaignStatus(connectionId: string, id: string, status: 'approved' | 'rejected', reason: string, now: string): Promise<CampaignRecord | undefined> {
      const campaigns = collections.campaigns;
      const decided = await campaigns.findOneAndUpdate(
        { _id: id, carrier_connection_id: connectionId, status: 'pending' },
        { $set: { status, rejection_reason: status === 'rejected' ? reason : '', updated_at: now } },
        { returnDocument: 'after' },
      );
      const current = decided ?? (await campaigns.findOne({ _id: id, carrier_connection_id: connectionId }));
      return current ? campaignRecord(current) : undefined;
    },
  };
}
