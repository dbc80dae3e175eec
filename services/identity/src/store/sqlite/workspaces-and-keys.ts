// Workspaces and their API keys in SQLite, including the suspension that revokes a workspace's credentials.
import { insertRow, isUniqueViolation } from '@voice/runtime/store/sqlite';
import type { Page } from '@voice/runtime/validation';
import type { ApiKeyRecord, RevokeKeyOutcome, WorkspaceKeyStore, WorkspaceRecord } from '../store.js';
import { insertWorkspace } from './inserts.js';
import { revokeOAuthCredentials } from './revoke.js';
import { ids, keyFromRow, workspaceFromRow, type ApiKeyRow, type WorkspaceRow } from './rows.js';
import { sqliteValues } from '@voice/runtime/store';
import { storedApiKey } from '../mapping/api-key.js';
import type { SqliteContext } from './context.js';

export function sqliteWorkspaceKeyStore({ db, sql }: SqliteContext): WorkspaceKeyStore {
  async function bootstrapRoot(workspace: WorkspaceRecord, key: ApiKeyRecord): Promise<'created' | 'exists'> {
    return db.transaction(() => {
      if (sql('SELECT 1 FROM workspaces WHERE parent_workspace_id IS NULL').get()) return 'exists' as const;
      insertWorkspace(sql, workspace);
      insertKey(key);
      return 'created' as const;
    }).immediate();
  }

  async function rootWorkspace(): Promise<WorkspaceRecord | undefined> {
    const row = sql('SELECT * FROM workspaces WHERE parent_workspace_id IS NULL').get() as WorkspaceRow | undefined;
    return row ? workspaceFromRow(row) : undefined;
  }

  async function createWorkspace(workspace: WorkspaceRecord): Promise<void> {
    insertWorkspace(sql, workspace);
  }

  async function getWorkspace(id: string): Promise<WorkspaceRecord | undefined> {
    const row = sql('SELECT * FROM workspaces WHERE id = ?').get(id) as WorkspaceRow | undefined;
    return row ? workspaceFromRow(row) : undefined;
  }

  async function createApiKey(key: ApiKeyRecord): Promise<void> {
    insertKey(key);
  }

  async function findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const row = sql('SELECT * FROM api_keys WHERE key_hash = ?').get(keyHash) as ApiKeyRow | undefined;
    return row ? keyFromRow(row) : undefined;
  }

  async function listApiKeys(workspaceId: string, page: Page): Promise<{ keys: ApiKeyRecord[]; total: number }> {
    return db.transaction(() => {
      const { total } = sql("SELECT COUNT(*) AS total FROM api_keys WHERE workspace_id = ? AND status = 'active'")
        .get(workspaceId) as { total: number };
      const rows = sql("SELECT * FROM api_keys WHERE workspace_id = ? AND status = 'active' ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?")
        .all(workspaceId, page.limit, page.offset) as ApiKeyRow[];
      return { keys: rows.map(keyFromRow), total };
    })();
  }

  async function registerApiKey(key: ApiKeyRecord): Promise<'created' | 'exists'> {
    try {
      insertKey(key);
      return 'created';
    } catch (error) {
      if (isUniqueViolation(error) && String((error as Error).message).includes('api_keys.key_hash')) return 'exists';
      throw error;
    }
  }

  async function revokeApiKey(workspaceId: string, id: string): Promise<RevokeKeyOutcome> {
    return db.transaction((): RevokeKeyOutcome => {
      const key = sql(
        `SELECT k.scopes, w.parent_workspace_id FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
         WHERE k.id = ? AND k.workspace_id = ? AND k.status = 'active'`,
      ).get(id, workspaceId) as { scopes: string | null; parent_workspace_id: string | null } | undefined;
      if (!key) return 'not_found';
      if (key.scopes === null && key.parent_workspace_id === null) {
        const others = sql(
          "SELECT COUNT(*) AS n FROM api_keys WHERE workspace_id = ? AND id <> ? AND status = 'active' AND scopes IS NULL",
        ).get(workspaceId, id) as { n: number };
        if (others.n === 0) return 'last_unrestricted';
      }
      sql("UPDATE api_keys SET status = 'revoked' WHERE id = ?").run(id);
      return 'revoked';
    }).immediate();
  }

  async function touchApiKey(id: string, at: string): Promise<void> {
    sql('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(at, id);
  }

  async function setWorkspaceStatus(
    id: string,
    status: WorkspaceRecord['status'],
  ): Promise<{ workspace: WorkspaceRecord; revokedCredentialIds: string[] } | undefined> {
    return db.transaction(() => {
      if (sql('UPDATE workspaces SET status = ? WHERE id = ?').run(status, id).changes === 0) return undefined;
      const revoked: string[] = [];
      if (status === 'suspended') {
        revoked.push(...ids(sql("UPDATE api_keys SET status = 'revoked' WHERE workspace_id = ? AND status = 'active' RETURNING id").all(id)));
        revoked.push(...revokeOAuthCredentials(sql, { where: 'workspace_id = ?', params: [id] }));
      }
      const row = sql('SELECT * FROM workspaces WHERE id = ?').get(id) as WorkspaceRow;
      return { workspace: workspaceFromRow(row), revokedCredentialIds: revoked };
    }).immediate();
  }

  function insertKey(key: ApiKeyRecord): void {
    insertRow(sql, 'api_keys', { id: key.id, ...storedApiKey(key, sqliteValues) });
  }



  return { bootstrapRoot, rootWorkspace, createWorkspace, getWorkspace, createApiKey, findApiKeyByHash, listApiKeys, registerApiKey, revokeApiKey, touchApiKey, setWorkspaceStatus };
}
