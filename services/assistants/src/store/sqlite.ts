// The assistants store on embedded SQLite: one row per assistant, its versions beside it,
// revision-checked updates that write their version in the same transaction, and idempotency
// claims written with the assistant they created.
import type { JsonObject } from '@bufbuild/protobuf';
import { openSqlite, statementCache } from '@voice/runtime/store/sqlite';
import { knowledgeMigration, SqliteKnowledgeParts } from './sqlite/knowledge.js';
import type { Page } from '@voice/runtime/validation';
import { assistantOf, assistantRowOf, foldName, type AssistantRow } from './mapping/assistant.js';
import { settingsOf, type SettingsRow } from './mapping/settings.js';
import { versionOf, versionRowOf, type VersionRow } from './mapping/version.js';
import {
  claimOutcome,
  type AssistantChange,
  type AssistantRecord,
  type AssistantsStore,
  type CreateOutcome,
  type IdempotencyClaim,
  type SettingsKind,
  type SettingsRecord,
  type UpdateOutcome,
  type VersionRecord,
} from './store.js';

const migrations = [
  `CREATE TABLE assistants (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL,
     name TEXT NOT NULL,
     name_folded TEXT NOT NULL,
     config TEXT NOT NULL,
     revision INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX assistants_by_workspace ON assistants (workspace_id, created_at DESC, id DESC);
   CREATE TABLE assistant_versions (
     workspace_id TEXT NOT NULL,
     assistant_id TEXT NOT NULL REFERENCES assistants (id) ON DELETE CASCADE,
     number INTEGER NOT NULL,
     config TEXT NOT NULL,
     author TEXT NOT NULL,
     changed_fields TEXT NOT NULL,
     restored_from INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (assistant_id, number)
   );
   CREATE TABLE idempotency_claims (
     workspace_id TEXT NOT NULL,
     key TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     assistant TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (workspace_id, key)
   );
   CREATE INDEX idempotency_claims_by_time ON idempotency_claims (created_at);`,
  `CREATE TABLE settings (
     workspace_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     value TEXT NOT NULL,
     revision INTEGER NOT NULL,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (workspace_id, kind)
   );`,
  knowledgeMigration,
];

/** A LIKE pattern matching `text` literally anywhere. */
const containing = (text: string): string => `%${foldName(text).replace(/[\\%_]/g, '\\$&')}%`;

export class SqliteAssistantsStore extends SqliteKnowledgeParts implements AssistantsStore {
  constructor(file: string) {
    const db = openSqlite(file, migrations);
    super(db, statementCache(db));
  }

  async create(assistant: AssistantRecord, version: VersionRecord, claim?: IdempotencyClaim): Promise<CreateOutcome> {
    return this.db.transaction((): CreateOutcome => {
      if (claim) {
        const existing = this.sql('SELECT fingerprint, assistant, created_at AS createdAt FROM idempotency_claims WHERE workspace_id = ? AND key = ?')
          .get(assistant.workspaceId, claim.key) as { fingerprint: string; assistant: string; createdAt: string } | undefined;
        const replay = claimOutcome(existing, claim);
        if (replay) return replay;
      }
      this.sql(
        `INSERT INTO assistants (id, workspace_id, name, name_folded, config, revision, created_at, updated_at)
         VALUES (@id, @workspace_id, @name, @name_folded, @config, @revision, @created_at, @updated_at)`,
      ).run(assistantRowOf(assistant));
      this.insertVersion(version);
      if (claim) {
        this.sql(
          `INSERT INTO idempotency_claims (workspace_id, key, fingerprint, assistant, created_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (workspace_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, assistant = excluded.assistant, created_at = excluded.created_at`,
        ).run(assistant.workspaceId, claim.key, claim.fingerprint, JSON.stringify(assistant), claim.now);
      }
      return { kind: 'created', assistant };
    }).immediate();
  }

  private insertVersion(version: VersionRecord): void {
    this.sql(
      `INSERT INTO assistant_versions (workspace_id, assistant_id, number, config, author, changed_fields, restored_from, created_at)
       VALUES (@workspace_id, @assistant_id, @number, @config, @author, @changed_fields, @restored_from, @created_at)`,
    ).run(versionRowOf(version));
  }

  async get(workspaceId: string, id: string): Promise<AssistantRecord | undefined> {
    const row = this.sql('SELECT * FROM assistants WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as AssistantRow | undefined;
    return row ? assistantOf(row) : undefined;
  }

  async list(workspaceId: string, query: string, page: Page): Promise<{ assistants: AssistantRecord[]; total: number }> {
    const where = query ? `workspace_id = @workspaceId AND name_folded LIKE @pattern ESCAPE '\\'` : 'workspace_id = @workspaceId';
    const params = { workspaceId, pattern: containing(query), limit: page.limit, offset: page.offset };
    return this.db.transaction(() => {
      const { total } = this.sql(`SELECT COUNT(*) AS total FROM assistants WHERE ${where}`).get(params) as { total: number };
      const rows = this.sql(`SELECT * FROM assistants WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`).all(params) as AssistantRow[];
      return { assistants: rows.map(assistantOf), total };
    })();
  }

  async update(workspaceId: string, id: string, expectedRevision: number, change: AssistantChange, version: VersionRecord): Promise<UpdateOutcome> {
    return this.db.transaction((): UpdateOutcome => {
      const changed = this.sql(
        `UPDATE assistants SET name = @name, name_folded = @nameFolded, config = @config, revision = revision + 1, updated_at = @updatedAt
         WHERE id = @id AND workspace_id = @workspaceId AND revision = @expectedRevision`,
      ).run({
        id,
        workspaceId,
        expectedRevision,
        name: change.name,
        nameFolded: foldName(change.name),
        config: JSON.stringify(change.config),
        updatedAt: change.updatedAt,
      }).changes;
      const row = this.sql('SELECT * FROM assistants WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as AssistantRow | undefined;
      if (!row) return { kind: 'not_found' };
      if (changed !== 1) return { kind: 'revision_conflict' };
      this.insertVersion({ ...version, number: row.revision });
      return { kind: 'updated', assistant: assistantOf(row) };
    }).immediate();
  }

  async countUsingKnowledgeBase(workspaceId: string, knowledgeBaseId: string): Promise<number> {
    const { count } = this.sql(
      `SELECT COUNT(*) AS count FROM assistants
       WHERE workspace_id = ? AND EXISTS (SELECT 1 FROM json_each(assistants.config, '$.knowledge_base_ids') WHERE value = ?)`,
    ).get(workspaceId, knowledgeBaseId) as { count: number };
    return count;
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    return this.sql('DELETE FROM assistants WHERE id = ? AND workspace_id = ?').run(id, workspaceId).changes === 1;
  }

  async listVersions(workspaceId: string, assistantId: string, page: Page): Promise<{ versions: VersionRecord[]; total: number }> {
    return this.db.transaction(() => {
      const { total } = this.sql('SELECT COUNT(*) AS total FROM assistant_versions WHERE assistant_id = ? AND workspace_id = ?').get(assistantId, workspaceId) as {
        total: number;
      };
      const rows = this.sql('SELECT * FROM assistant_versions WHERE assistant_id = ? AND workspace_id = ? ORDER BY number DESC LIMIT ? OFFSET ?').all(
        assistantId,
        workspaceId,
        page.limit,
        page.offset,
      ) as VersionRow[];
      return { versions: rows.map(versionOf), total };
    })();
  }

  async getVersion(workspaceId: string, assistantId: string, number: number): Promise<VersionRecord | undefined> {
    const row = this.sql('SELECT * FROM assistant_versions WHERE assistant_id = ? AND workspace_id = ? AND number = ?').get(assistantId, workspaceId, number) as
      | VersionRow
      | undefined;
    return row ? versionOf(row) : undefined;
  }

  async pruneIdempotencyClaims(createdBefore: string, limit: number): Promise<number> {
    return this.sql('DELETE FROM idempotency_claims WHERE rowid IN (SELECT rowid FROM idempotency_claims WHERE created_at < ? ORDER BY created_at LIMIT ?)').run(
      createdBefore,
      limit,
    ).changes;
  }

  async settings(workspaceId: string, kind: SettingsKind): Promise<SettingsRecord | undefined> {
    const row = this.sql('SELECT * FROM settings WHERE workspace_id = ? AND kind = ?').get(workspaceId, kind) as SettingsRow | undefined;
    return row ? settingsOf(row) : undefined;
  }

  async saveSettings(workspaceId: string, kind: SettingsKind, value: JsonObject, expectedRevision: number, now: string): Promise<boolean> {
    const params = { workspaceId, kind, value: JSON.stringify(value), expectedRevision, now };
    if (expectedRevision === 0) {
      return this.sql(
        `INSERT INTO settings (workspace_id, kind, value, revision, updated_at) VALUES (@workspaceId, @kind, @value, 1, @now)
         ON CONFLICT (workspace_id, kind) DO NOTHING`,
      ).run(params).changes === 1;
    }
    return this.sql(
      `UPDATE settings SET value = @value, revision = revision + 1, updated_at = @now
       WHERE workspace_id = @workspaceId AND kind = @kind AND revision = @expectedRevision`,
    ).run(params).changes === 1;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
