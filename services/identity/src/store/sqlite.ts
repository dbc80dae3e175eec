// IdentityStore on embedded SQLite.
import type Database from 'better-sqlite3';
import { openSqlite, statementCache, type Page, type SqliteDatabase } from '@voice/runtime';
import type { ApiKeyRecord, IdentityStore, WorkspaceRecord } from './store.js';

const migrations = [
  `CREATE TABLE workspaces (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     plan TEXT NOT NULL,
     status TEXT NOT NULL,
     parent_workspace_id TEXT REFERENCES workspaces (id),
     created_at TEXT NOT NULL
   );
   -- At most one root: the root is the workspace without a parent.
   CREATE UNIQUE INDEX one_root ON workspaces ((parent_workspace_id IS NULL)) WHERE parent_workspace_id IS NULL;
   CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL REFERENCES workspaces (id),
     name TEXT NOT NULL,
     principal_id TEXT NOT NULL UNIQUE,
     key_hash TEXT NOT NULL UNIQUE,
     key_hint TEXT NOT NULL,
     scopes TEXT,
     status TEXT NOT NULL,
     created_at TEXT NOT NULL,
     last_used_at TEXT
   );
   CREATE INDEX api_keys_by_workspace ON api_keys (workspace_id, status, created_at DESC, id DESC);`,
];

interface WorkspaceRow {
  id: string;
  name: string;
  plan: string;
  status: string;
  parent_workspace_id: string | null;
  created_at: string;
}

interface ApiKeyRow {
  id: string;
  workspace_id: string;
  name: string;
  principal_id: string;
  key_hash: string;
  key_hint: string;
  scopes: string | null;
  status: string;
  created_at: string;
  last_used_at: string | null;
}

const workspaceFromRow = (row: WorkspaceRow): WorkspaceRecord => ({
  id: row.id,
  name: row.name,
  plan: row.plan,
  status: row.status as WorkspaceRecord['status'],
  parentWorkspaceId: row.parent_workspace_id,
  createdAt: row.created_at,
});

const keyFromRow = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  principalId: row.principal_id,
  keyHash: row.key_hash,
  keyHint: row.key_hint,
  scopes: row.scopes === null ? null : (JSON.parse(row.scopes) as string[]),
  status: row.status as ApiKeyRecord['status'],
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

export class SqliteIdentityStore implements IdentityStore {
  private readonly db: SqliteDatabase;
  private readonly sql: (text: string) => Database.Statement;

  constructor(file: string) {
    this.db = openSqlite(file, migrations);
    this.sql = statementCache(this.db);
  }

  async bootstrapRoot(workspace: WorkspaceRecord, key: ApiKeyRecord): Promise<'created' | 'exists'> {
    return this.db.transaction(() => {
      if (this.sql('SELECT 1 FROM workspaces WHERE parent_workspace_id IS NULL').get()) return 'exists' as const;
      this.insertWorkspace(workspace);
      this.insertKey(key);
      return 'created' as const;
    }).immediate();
  }

  async rootWorkspace(): Promise<WorkspaceRecord | undefined> {
    const row = this.sql('SELECT * FROM workspaces WHERE parent_workspace_id IS NULL').get() as WorkspaceRow | undefined;
    return row ? workspaceFromRow(row) : undefined;
  }

  async createWorkspace(workspace: WorkspaceRecord): Promise<void> {
    this.insertWorkspace(workspace);
  }

  async getWorkspace(id: string): Promise<WorkspaceRecord | undefined> {
    const row = this.sql('SELECT * FROM workspaces WHERE id = ?').get(id) as WorkspaceRow | undefined;
    return row ? workspaceFromRow(row) : undefined;
  }

  async createApiKey(key: ApiKeyRecord): Promise<void> {
    this.insertKey(key);
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const row = this.sql('SELECT * FROM api_keys WHERE key_hash = ?').get(keyHash) as ApiKeyRow | undefined;
    return row ? keyFromRow(row) : undefined;
  }

  async listApiKeys(workspaceId: string, page: Page): Promise<{ keys: ApiKeyRecord[]; total: number }> {
    return this.db.transaction(() => {
      const { total } = this.sql("SELECT COUNT(*) AS total FROM api_keys WHERE workspace_id = ? AND status = 'active'")
        .get(workspaceId) as { total: number };
      const rows = this.sql("SELECT * FROM api_keys WHERE workspace_id = ? AND status = 'active' ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?")
        .all(workspaceId, page.limit, page.offset) as ApiKeyRow[];
      return { keys: rows.map(keyFromRow), total };
    })();
  }

  async revokeApiKey(workspaceId: string, id: string): Promise<boolean> {
    return (
      this.sql("UPDATE api_keys SET status = 'revoked' WHERE id = ? AND workspace_id = ? AND status = 'active'").run(id, workspaceId)
        .changes === 1
    );
  }

  async touchApiKey(id: string, at: string): Promise<void> {
    this.sql('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(at, id);
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private insertWorkspace(workspace: WorkspaceRecord): void {
    this.sql('INSERT INTO workspaces (id, name, plan, status, parent_workspace_id, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(workspace.id, workspace.name, workspace.plan, workspace.status, workspace.parentWorkspaceId, workspace.createdAt);
  }

  private insertKey(key: ApiKeyRecord): void {
    this.sql(
        `INSERT INTO api_keys (id, workspace_id, name, principal_id, key_hash, key_hint, scopes, status, created_at, last_used_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(key.id, key.workspaceId, key.name, key.principalId, key.keyHash, key.keyHint,
        key.scopes === null ? null : JSON.stringify(key.scopes), key.status, key.createdAt, key.lastUsedAt);
  }
}
