// A2P campaigns in SQLite; a carrier's verdict changes only a pending campaign of its connection.
import type { SqliteDatabase } from '@voice/runtime/store/sqlite';
import type { Page } from '@voice/runtime/validation';
import type { CampaignStore } from '../composed.js';
import type { CampaignRecord } from '../store.js';
import { campaignFromRow, campaignRow, type CampaignRow } from './rows.js';
import { insertRow, selectPage, type Sql } from './statements.js';

export class SqliteCampaignStore implements CampaignStore {
  constructor(private readonly db: SqliteDatabase, private readonly sql: Sql) {}

  async insertCampaign(campaign: CampaignRecord): Promise<CampaignRecord> {
    insertRow(this.sql, 'a2p_campaigns', campaignRow(campaign));
    return campaign;
  }

  async getCampaign(workspaceId: string, id: string): Promise<CampaignRecord | undefined> {
    const row = this.sql('SELECT * FROM a2p_campaigns WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as CampaignRow | undefined;
    return row ? campaignFromRow(row) : undefined;
  }

  async listCampaigns(workspaceId: string, page: Page): Promise<{ campaigns: CampaignRecord[]; total: number }> {
    const { rows, total } = selectPage<CampaignRow>(this.db, this.sql, { table: 'a2p_campaigns', where: 'workspace_id = @workspaceId', params: { workspaceId } }, page);
    return { campaigns: rows.map(campaignFromRow), total };
  }

  async setCampaignStatus(connectionId: string, id: string, status: 'approved' | 'rejected', reason: string, now: string): Promise<CampaignRecord | undefined> {
    return this.db.transaction(() => {
      this.sql(
        `UPDATE a2p_campaigns SET status = ?, rejection_reason = ?, updated_at = ?
         WHERE id = ? AND carrier_connection_id = ? AND status = 'pending'`,
      ).run(status, status === 'rejected' ? reason : '', now, id, connectionId);
      const row = this.sql('SELECT * FROM a2p_campaigns WHERE id = ? AND carrier_connection_id = ?').get(id, connectionId) as CampaignRow | undefined;
      return row ? campaignFromRow(row) : undefined;
    }).immediate();
  }
}
