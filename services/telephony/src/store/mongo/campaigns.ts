// A2P campaigns in MongoDB; a carrier's verdict changes only a pending campaign of its connection.
import type { Page } from '@voice/runtime/validation';
import type { CampaignStore } from '../composed.js';
import type { CampaignRecord } from '../store.js';
import { campaignDocument, campaignRecord } from './documents.js';
import { findPage, MongoStorePart } from './part.js';

export class MongoCampaignStore extends MongoStorePart implements CampaignStore {
  async insertCampaign(campaign: CampaignRecord): Promise<CampaignRecord> {
    await this.collections.campaigns.insertOne(campaignDocument(campaign));
    return campaign;
  }

  async getCampaign(workspaceId: string, id: string): Promise<CampaignRecord | undefined> {
    const doc = await this.collections.campaigns.findOne({ _id: id, workspace_id: workspaceId });
    return doc ? campaignRecord(doc) : undefined;
  }

  async listCampaigns(workspaceId: string, page: Page): Promise<{ campaigns: CampaignRecord[]; total: number }> {
    const { docs, total } = await findPage(this.collections.campaigns, { workspace_id: workspaceId }, page);
    return { campaigns: docs.map(campaignRecord), total };
  }

  async setCampaignStatus(connectionId: string, id: string, status: 'approved' | 'rejected', reason: string, now: string): Promise<CampaignRecord | undefined> {
    const campaigns = this.collections.campaigns;
    const decided = await campaigns.findOneAndUpdate(
      { _id: id, carrier_connection_id: connectionId, status: 'pending' },
      { $set: { status, rejection_reason: status === 'rejected' ? reason : '', updated_at: now } },
      { returnDocument: 'after' },
    );
    const current = decided ?? (await campaigns.findOne({ _id: id, carrier_connection_id: connectionId }));
    return current ? campaignRecord(current) : undefined;
  }
}
