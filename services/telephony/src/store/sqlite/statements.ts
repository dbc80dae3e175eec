// What every part of the SQLite store works on (the database, its statement cache, the outbox), and
// the SQL every part writes the same way: updating the columns a change names, and reading one
// page of a workspace's rows newest first.
import type Database from 'better-sqlite3';
import type { SqliteDatabase, SqliteOutbox } from '@voice/runtime/store/sqlite';
import type { Page } from '@voice/runtime/validation';

export type Sql = (text: string) => Database.Statement;

export interface SqliteContext {
  db: SqliteDatabase;
  sql: Sql;
  outbox: SqliteOutbox;
}

/**
 * Sets the given columns (an undefined value means "leave it") on the row `id` of `workspaceId`;
 * true when that row exists.
 */
export function updateRow(sql: Sql, table: string, workspaceId: string, id: string, columns: Record<string, unknown>): boolean {
  const set = Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
  const assignments = Object.keys(set).map((column) => `${column} = @${column}`);
  return sql(`UPDATE ${table} SET ${assignments.join(', ')} WHERE id = @id AND workspace_id = @workspaceId`).run({ ...set, id, workspaceId }).changes === 1;
}

/** One page of the rows matching `where`, newest first, with how many match in all (read as one snapshot). */
export function selectPage<Row>(
  db: SqliteDatabase,
  sql: Sql,
  query: { table: string; where: string; params: Record<string, unknown> },
  page: Page,
): { rows: Row[]; total: number } {
  const { table, where, params } = query;
  return db.transaction(() => {
    const { total } = sql(`SELECT COUNT(*) AS total FROM ${table} WHERE ${where}`).get(params) as { total: number };
    const rows = sql(`SELECT * FROM ${table} WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`)
      .all({ ...params, limit: page.limit, offset: page.offset }) as Row[];
    return { rows, total };
  })();
}

export const sqliteBoolean = (value: boolean | undefined): number | undefined => (value === undefined ? undefined : value ? 1 : 0);
