// The suppression list in SQLite: a number appears at most once per workspace.
import { insertRow, isUniqueViolation } from '@voice/runtime/store/sqlite';
import type { Page } from '@voice/runtime/validation';
import type { SuppressionRecord, SuppressionStore } from '../store.js';
import { suppressionFromRow, suppressionRow, type SuppressionRow } from './rows.js';
import { selectPage, type SqliteContext } from './statements.js';

const sqliteChunk = 500;

export function sqliteSuppressionStore({ db, sql }: SqliteContext): SuppressionStore {
  return {
    async insertSuppression(entry: SuppressionRecord): Promise<{ kind: 'created'; entry: SuppressionRecord } | { kind: 'exists' }> {
      try {
        insertRow(sql, 'suppressions', suppressionRow(entry));
        return { kind: 'created', entry };
      } catch (error) {
        if (isUniqueViolation(error)) return { kind: 'exists' };
        throw error;
      }
    },

    async isSuppressed(workspaceId: string, number: string): Promise<boolean> {
      return sql('SELECT 1 FROM suppressions WHERE workspace_id = ? AND number = ?').get(workspaceId, number) !== undefined;
    },

    async suppressedAmong(workspaceId: string, numbers: readonly string[]): Promise<string[]> {
      const found: string[] = [];
      // Bound the statement's variables: SQLite refuses more than a few thousand in one statement on older builds.
      for (let start = 0; start < numbers.length; start += sqliteChunk) {
        const chunk = [...new Set(numbers.slice(start, start + sqliteChunk))];
        const rows = sql(`SELECT number FROM suppressions WHERE workspace_id = ? AND number IN (${chunk.map(() => '?').join(', ')})`).all(workspaceId, ...chunk) as {
          number: string;
        }[];
        found.push(...rows.map((row) => row.number));
      }
      return [...new Set(found)];
    },

    async listSuppressions(workspaceId: string, page: Page): Promise<{ entries: SuppressionRecord[]; total: number }> {
      const { rows, total } = selectPage<SuppressionRow>(db, sql, { table: 'suppressions', where: 'workspace_id = @workspaceId', params: { workspaceId } }, page);
      return { entries: rows.map(suppressionFromRow), total };
    },

    async deleteSuppression(workspaceId: string, id: string): Promise<boolean> {
      return sql('DELETE FROM suppressions WHERE id = ? AND workspace_id = ?').run(id, workspaceId).changes === 1;
    },
  };
}
