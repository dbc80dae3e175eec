// A2P campaigns in SQLite; a carrier's verdict changes only a pending campaign of its connection.
import { insertRow } from '@voice/runtime/store/sqlite';
import type { Page } from '@voice/runtime/validation';
import type { CampaignRecord, CampaignStore } from '../store.js';
import { campaignFromRow, campaignRow, type CampaignRow } from './rows.js';
import { selectPage, type SqliteContext } from './statements.js';

export function sqliteCampaignStore({ db, sql }: SqliteContext): CampaignStore {
  return {
    async insertCampaign(campaign: CampaignRecord): Promise<CampaignRecord> {
      insertRow(sql, 'a2p_campaigns', campaignRow(campaign));
      return campaign;
    },

    async getCampaign(workspaceId: string, id: string): Promise<CampaignRecord | undefined> {
      const row = sql('SELECT * FROM a2p_campaigns WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as CampaignRow | undefined;
      return row ? campaignFromRow(row) : undefined;
    },

    async listCampaigns(workspaceId: string, page: Page): Promise<{ campaigns: CampaignRecord[]; total: number }> {
      const { rows, total } = selectPage<CampaignRow>(db, sql, { table: 'a2p_campaigns', where: 'workspace_id = @workspaceId', params: { workspaceId } }, page);
      return { campaigns: rows.map(campaignFromRow), total };
    },

    async setCampaignStatus(connectionId: string, id: string, status: 'approved' | 'rejected', reason: string, now: string): Promise<CampaignRecord | undefined> {
      return db.transaction(() => {
        sql(
          `UPDATE a2p_campaigns SET status = ?, rejection_reason = ?, updated_at = ?
           WHERE id = ? AND carrier_connection_id = ? AND status = 'pending'`,
        ).run(status, status === 'rejected' ? reason : '', now, id, connectionId);
        const row = sql('SELECT * FROM a2p_campaigns WHERE id = ? AND carrier_connection_id = ?').get(id, connectionId) as CampaignRow | undefined;
        return row ? campaignFromRow(row) : undefined;
      }).immediate();
    },
  };
}
