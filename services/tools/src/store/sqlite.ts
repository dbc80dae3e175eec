// ToolStore on embedded SQLite: one row per tool, revision-checked updates, idempotency
// claims written in the same transaction as the tool they created.
import type Database from 'better-sqlite3';
import { insertRow, isUniqueViolation, openSqlite, statementCache, type SqliteDatabase } from '@voice/runtime/store/sqlite';
import { sqliteValues } from '@voice/runtime/store';
import type { Page } from '@voice/runtime/validation';
import {
  claimOutcome,
  type CreateOutcome,
  type IdempotencyClaim,
  type ToolChanges,
  type ToolFilter,
  type ToolRecord,
  type ToolStore,
  type UpdateOutcome,
} from './store.js';
import { storedTool, toolFromStored, type StoredTool } from './mapping/tool.js';

const migrations = [
  `CREATE TABLE tools (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     name TEXT NOT NULL,
     description TEXT NOT NULL,
     type TEXT NOT NULL,
     config TEXT NOT NULL,
     is_active INTEGER NOT NULL,
     revision INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     UNIQUE (workspace_id, name)
   );
   CREATE INDEX tools_by_workspace ON tools (workspace_id, created_at DESC, id DESC);
   CREATE TABLE idempotency_claims (
     workspace_id TEXT NOT NULL,
     key TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     tool TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (workspace_id, key)
   );`,
  `CREATE INDEX idempotency_claims_by_time ON idempotency_claims (created_at);`,
];

type ToolRow = StoredTool<number> & { id: string };

const fromRow = (row: ToolRow): ToolRecord => toolFromStored(row.id, row, sqliteValues);

export class SqliteToolStore implements ToolStore {
  private readonly db: SqliteDatabase;
  private readonly sql: (text: string) => Database.Statement;

  constructor(file: string) {
    this.db = openSqlite(file, migrations);
    this.sql = statementCache(this.db);
  }

  async create(tool: ToolRecord, claim?: IdempotencyClaim): Promise<CreateOutcome> {
    return this.db.transaction((): CreateOutcome => {
      if (claim) {
        const existing = this.sql('SELECT fingerprint, tool, created_at AS createdAt FROM idempotency_claims WHERE workspace_id = ? AND key = ?')
          .get(tool.workspaceId, claim.key) as { fingerprint: string; tool: string; createdAt: string } | undefined;
        const replay = claimOutcome(existing, claim);
        if (replay) return replay;
      }
      try {
        const row: ToolRow = { id: tool.id, ...storedTool(tool, sqliteValues) };
        insertRow(this.sql, 'tools', row);
      } catch (error) {
        if (isUniqueViolation(error)) return { kind: 'name_taken' };
        throw error;
      }
      if (claim) {
        this.sql(
            `INSERT INTO idempotency_claims (workspace_id, key, fingerprint, tool, created_at) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (workspace_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, tool = excluded.tool, created_at = excluded.created_at`,
          )
          .run(tool.workspaceId, claim.key, claim.fingerprint, JSON.stringify(tool), claim.now);
      }
      return { kind: 'created', tool };
    }).immediate();
  }

  async get(workspaceId: string, id: string): Promise<ToolRecord | undefined> {
    const row = this.sql('SELECT * FROM tools WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as ToolRow | undefined;
    return row ? fromRow(row) : undefined;
  }

  async list(workspaceId: string, filter: ToolFilter, page: Page): Promise<{ tools: ToolRecord[]; total: number }> {
    const conditions = ['workspace_id = @workspaceId'];
    if (filter.type !== undefined) conditions.push('type = @type');
    if (filter.isActive !== undefined) conditions.push('is_active = @isActive');
    if (filter.assistantId !== undefined) conditions.push("type = 'builtin' AND json_extract(config, '$.assistant_id') = @assistantId");
    const where = conditions.join(' AND ');
    const params = { workspaceId, type: filter.type, isActive: filter.isActive ? 1 : 0, assistantId: filter.assistantId, limit: page.limit, offset: page.offset };
    return this.db.transaction(() => {
      const { total } = this.sql(`SELECT COUNT(*) AS total FROM tools WHERE ${where}`).get(params) as { total: number };
      const rows = this.sql(`SELECT * FROM tools WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`)
        .all(params) as ToolRow[];
      return { tools: rows.map(fromRow), total };
    })();
  }

  async update(workspaceId: string, id: string, expectedRevision: number, changes: ToolChanges, now: string): Promise<UpdateOutcome> {
    return this.db.transaction((): UpdateOutcome => {
      const assignments = ['revision = revision + 1', 'updated_at = @now'];
      if (changes.name !== undefined) assignments.push('name = @name');
      if (changes.description !== undefined) assignments.push('description = @description');
      if (changes.config !== undefined) assignments.push('config = @config');
      if (changes.isActive !== undefined) assignments.push('is_active = @isActive');
      let changed: number;
      try {
        changed = this.sql(`UPDATE tools SET ${assignments.join(', ')} WHERE id = @id AND workspace_id = @workspaceId AND revision = @expectedRevision`)
          .run({
            id,
            workspaceId,
            expectedRevision,
            now,
            name: changes.name,
            description: changes.description,
            config: changes.config === undefined ? undefined : JSON.stringify(changes.config),
            isActive: changes.isActive ? 1 : 0,
          }).changes;
      } catch (error) {
        if (isUniqueViolation(error)) return { kind: 'name_taken' };
        throw error;
      }
      const row = this.sql('SELECT * FROM tools WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as ToolRow | undefined;
      if (!row) return { kind: 'not_found' };
      return changed === 1 ? { kind: 'updated', tool: fromRow(row) } : { kind: 'revision_conflict' };
    }).immediate();
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    return this.sql('DELETE FROM tools WHERE id = ? AND workspace_id = ?').run(id, workspaceId).changes === 1;
  }

  async pruneIdempotencyClaims(createdBefore: string, limit: number): Promise<number> {
    return this.sql('DELETE FROM idempotency_claims WHERE rowid IN (SELECT rowid FROM idempotency_claims WHERE created_at < ? ORDER BY created_at LIMIT ?)')
      .run(createdBefore, limit).changes;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
