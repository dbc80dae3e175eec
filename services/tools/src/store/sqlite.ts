// ToolStore on embedded SQLite: one row per tool, revision-checked updates, idempotency
// claims written in the same transaction as the tool they created.
import type { JsonObject } from '@bufbuild/protobuf';
import type Database from 'better-sqlite3';
import { isUniqueViolation, openSqlite, statementCache, type SqliteDatabase } from '@voice/runtime/store/sqlite';
import type { Page } from '@voice/runtime/validation';
import type { ToolType } from '@voice/contracts/tools';
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
];

interface ToolRow {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  type: string;
  config: string;
  is_active: number;
  revision: number;
  created_at: string;
  updated_at: string;
}

const fromRow = (row: ToolRow): ToolRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  description: row.description,
  type: row.type as ToolType,
  config: JSON.parse(row.config) as JsonObject,
  isActive: row.is_active === 1,
  revision: row.revision,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

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
        this.sql(
            `INSERT INTO tools (id, workspace_id, name, description, type, config, is_active, revision, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(tool.id, tool.workspaceId, tool.name, tool.description, tool.type, JSON.stringify(tool.config),
            tool.isActive ? 1 : 0, tool.revision, tool.createdAt, tool.updatedAt);
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
    const where = conditions.join(' AND ');
    const params = { workspaceId, type: filter.type, isActive: filter.isActive ? 1 : 0, limit: page.limit, offset: page.offset };
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

  async close(): Promise<void> {
    this.db.close();
  }
}
