// Carrier connections in SQLite; one stays while a number or a campaign uses it.
import { insertRow } from '@voice/runtime/store/sqlite';
import type { Page } from '@voice/runtime/validation';
import type { ConnectionChanges, ConnectionRecord, ConnectionStore } from '../store.js';
import { connectionFromRow, connectionRow, type ConnectionRow } from './rows.js';
import { selectPage, updateRow, type SqliteContext } from './statements.js';

export function sqliteConnectionStore({ db, sql }: SqliteContext): ConnectionStore {
  return {
    async insertConnection(connection: ConnectionRecord): Promise<ConnectionRecord> {
      insertRow(sql, 'carrier_connections', connectionRow(connection));
      return connection;
    },

    async getConnection(workspaceId: string, id: string): Promise<ConnectionRecord | undefined> {
      const row = sql('SELECT * FROM carrier_connections WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as ConnectionRow | undefined;
      return row ? connectionFromRow(row) : undefined;
    },

    async getConnectionById(id: string): Promise<ConnectionRecord | undefined> {
      const row = sql('SELECT * FROM carrier_connections WHERE id = ?').get(id) as ConnectionRow | undefined;
      return row ? connectionFromRow(row) : undefined;
    },

    async listConnections(workspaceId: string, page: Page): Promise<{ connections: ConnectionRecord[]; total: number }> {
      const { rows, total } = selectPage<ConnectionRow>(
        db,
        sql,
        { table: 'carrier_connections', where: 'workspace_id = @workspaceId', params: { workspaceId } },
        page,
      );
      return { connections: rows.map(connectionFromRow), total };
    },

    async updateConnection(workspaceId: string, id: string, changes: ConnectionChanges, now: string): Promise<ConnectionRecord | undefined> {
      return db.transaction(() => {
        const found = updateRow(sql, 'carrier_connections', workspaceId, id, {
          name: changes.name,
          base_url: changes.baseUrl,
          sealed_account_sid: changes.sealedAccountSid,
          sealed_auth_token: changes.sealedAuthToken,
          updated_at: now,
        });
        if (!found) return undefined;
        return connectionFromRow(sql('SELECT * FROM carrier_connections WHERE id = ?').get(id) as ConnectionRow);
      }).immediate();
    },

    async deleteConnection(workspaceId: string, id: string): Promise<'deleted' | 'not_found' | 'in_use'> {
      return db.transaction(() => {
        if (!sql('SELECT 1 FROM carrier_connections WHERE id = ? AND workspace_id = ?').get(id, workspaceId)) return 'not_found' as const;
        const used =
          sql('SELECT 1 FROM phone_numbers WHERE carrier_connection_id = ? LIMIT 1').get(id) ??
          sql('SELECT 1 FROM a2p_campaigns WHERE carrier_connection_id = ? LIMIT 1').get(id);
        if (used) return 'in_use' as const;
        sql('DELETE FROM carrier_connections WHERE id = ?').run(id);
        return 'deleted' as const;
      }).immediate();
    },
  };
}
