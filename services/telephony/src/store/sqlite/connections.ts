// Carrier connections in SQLite; one stays while a number or a campaign uses it.
import type { SqliteDatabase } from '@voice/runtime/store/sqlite';
import type { Page } from '@voice/runtime/validation';
import type { ConnectionStore } from '../composed.js';
import type { ConnectionChanges, ConnectionRecord } from '../store.js';
import { connectionFromRow, connectionRow, type ConnectionRow } from './rows.js';
import { insertRow, selectPage, updateRow, type Sql } from './statements.js';

export class SqliteConnectionStore implements ConnectionStore {
  constructor(private readonly db: SqliteDatabase, private readonly sql: Sql) {}

  async insertConnection(connection: ConnectionRecord): Promise<ConnectionRecord> {
    insertRow(this.sql, 'carrier_connections', connectionRow(connection));
    return connection;
  }

  async getConnection(workspaceId: string, id: string): Promise<ConnectionRecord | undefined> {
    const row = this.sql('SELECT * FROM carrier_connections WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as ConnectionRow | undefined;
    return row ? connectionFromRow(row) : undefined;
  }

  async getConnectionById(id: string): Promise<ConnectionRecord | undefined> {
    const row = this.sql('SELECT * FROM carrier_connections WHERE id = ?').get(id) as ConnectionRow | undefined;
    return row ? connectionFromRow(row) : undefined;
  }

  async listConnections(workspaceId: string, page: Page): Promise<{ connections: ConnectionRecord[]; total: number }> {
    const { rows, total } = selectPage<ConnectionRow>(
      this.db,
      this.sql,
      { table: 'carrier_connections', where: 'workspace_id = @workspaceId', params: { workspaceId } },
      page,
    );
    return { connections: rows.map(connectionFromRow), total };
  }

  async updateConnection(workspaceId: string, id: string, changes: ConnectionChanges, now: string): Promise<ConnectionRecord | undefined> {
    return this.db.transaction(() => {
      const found = updateRow(this.sql, 'carrier_connections', workspaceId, id, {
        name: changes.name,
        base_url: changes.baseUrl,
        sealed_account_sid: changes.sealedAccountSid,
        sealed_auth_token: changes.sealedAuthToken,
        updated_at: now,
      });
      if (!found) return undefined;
      return connectionFromRow(this.sql('SELECT * FROM carrier_connections WHERE id = ?').get(id) as ConnectionRow);
    }).immediate();
  }

  async deleteConnection(workspaceId: string, id: string): Promise<'deleted' | 'not_found' | 'in_use'> {
    return this.db.transaction(() => {
      if (!this.sql('SELECT 1 FROM carrier_connections WHERE id = ? AND workspace_id = ?').get(id, workspaceId)) return 'not_found' as const;
      const used =
        this.sql('SELECT 1 FROM phone_numbers WHERE carrier_connection_id = ? LIMIT 1').get(id) ??
        this.sql('SELECT 1 FROM a2p_campaigns WHERE carrier_connection_id = ? LIMIT 1').get(id);
      if (used) return 'in_use' as const;
      this.sql('DELETE FROM carrier_connections WHERE id = ?').run(id);
      return 'deleted' as const;
    }).immediate();
  }
}
