// The suppression list in SQLite: a number appears at most once per workspace.
import { isUniqueViolation, type SqliteDatabase } from '@voice/runtime/store/sqlite';
import type { Page } from '@voice/runtime/validation';
import type { SuppressionStore } from '../composed.js';
import type { SuppressionRecord } from '../store.js';
import { suppressionFromRow, suppressionRow, type SuppressionRow } from './rows.js';
import { insertRow, selectPage, type Sql } from './statements.js';

export class SqliteSuppressionStore implements SuppressionStore {
  constructor(private readonly db: SqliteDatabase, private readonly sql: Sql) {}

  async insertSuppression(entry: SuppressionRecord): Promise<{ kind: 'created'; entry: SuppressionRecord } | { kind: 'exists' }> {
    try {
      insertRow(this.sql, 'suppressions', suppressionRow(entry));
      return { kind: 'created', entry };
    } catch (error) {
      if (isUniqueViolation(error)) return { kind: 'exists' };
      throw error;
    }
  }

  async isSuppressed(workspaceId: string, number: string): Promise<boolean> {
    return this.sql('SELECT 1 FROM suppressions WHERE workspace_id = ? AND number = ?').get(workspaceId, number) !== undefined;
  }

  async listSuppressions(workspaceId: string, page: Page): Promise<{ entries: SuppressionRecord[]; total: number }> {
    const { rows, total } = selectPage<SuppressionRow>(this.db, this.sql, { table: 'suppressions', where: 'workspace_id = @workspaceId', params: { workspaceId } }, page);
    return { entries: rows.map(suppressionFromRow), total };
  }

  async deleteSuppression(workspaceId: string, id: string): Promise<boolean> {
    return this.sql('DELETE FROM suppressions WHERE id = ? AND workspace_id = ?').run(id, workspaceId).changes === 1;
  }
}
