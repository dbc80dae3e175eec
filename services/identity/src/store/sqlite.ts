// IdentityStore on embedded SQLite. Writes that must agree run in one IMMEDIATE transaction,
// which also serialises them against other connections to the file.
import type Database from 'better-sqlite3';
import { isUniqueViolation, openSqlite, statementCache, type Page, type Role, type SqliteDatabase } from '@voice/runtime';
import type {
  AddMemberOutcome,
  ApiKeyRecord,
  AuthorizationCodeRecord,
  GrantRecord,
  IdentityStore,
  MemberChangeOutcome,
  MemberRecord,
  MembershipRecord,
  MemberState,
  OAuthClientRecord,
  RedeemOutcome,
  RotateOutcome,
  TokenRecord,
  UserRecord,
  WorkspaceRecord,
} from './store.js';

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
  `CREATE TABLE users (
     id TEXT PRIMARY KEY,
     email TEXT NOT NULL UNIQUE,
     name TEXT NOT NULL,
     password_hash TEXT,
     created_at TEXT NOT NULL
   );
   CREATE TABLE members (
     workspace_id TEXT NOT NULL REFERENCES workspaces (id),
     user_id TEXT NOT NULL REFERENCES users (id),
     role TEXT NOT NULL,
     status TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (workspace_id, user_id)
   );
   CREATE INDEX members_newest_first ON members (workspace_id, created_at DESC, user_id DESC);
   CREATE INDEX members_by_user ON members (user_id);
   CREATE TABLE oauth_clients (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     redirect_uris TEXT NOT NULL,
     scopes TEXT NOT NULL,
     grant_types TEXT NOT NULL,
     token_endpoint_auth_method TEXT NOT NULL,
     secret_hash TEXT,
     client_uri TEXT,
     created_at TEXT NOT NULL
   );
   CREATE TABLE oauth_codes (
     id TEXT PRIMARY KEY,
     code_hash TEXT NOT NULL UNIQUE,
     client_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     workspace_id TEXT NOT NULL,
     redirect_uri TEXT NOT NULL,
     scopes TEXT NOT NULL,
     code_challenge TEXT NOT NULL,
     resource TEXT NOT NULL,
     status TEXT NOT NULL,
     grant_id TEXT,
     expires_at TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX oauth_codes_by_member ON oauth_codes (workspace_id, user_id, status);
   CREATE TABLE oauth_grants (
     id TEXT PRIMARY KEY,
     client_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     workspace_id TEXT NOT NULL,
     scopes TEXT NOT NULL,
     resource TEXT NOT NULL,
     status TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX oauth_grants_by_member ON oauth_grants (workspace_id, user_id, status);
   CREATE TABLE oauth_tokens (
     id TEXT PRIMARY KEY,
     grant_id TEXT NOT NULL REFERENCES oauth_grants (id),
     kind TEXT NOT NULL,
     token_hash TEXT NOT NULL UNIQUE,
     client_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     workspace_id TEXT NOT NULL,
     scopes TEXT NOT NULL,
     status TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX oauth_tokens_by_grant ON oauth_tokens (grant_id, status);
   CREATE INDEX oauth_tokens_by_workspace ON oauth_tokens (workspace_id, status);`,
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

interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  created_at: string;
}

interface MemberRow {
  workspace_id: string;
  user_id: string;
  role: string;
  status: string;
  created_at: string;
  email: string;
  name: string;
}

interface ClientRow {
  id: string;
  name: string;
  redirect_uris: string;
  scopes: string;
  grant_types: string;
  token_endpoint_auth_method: string;
  secret_hash: string | null;
  client_uri: string | null;
  created_at: string;
}

interface CodeRow {
  id: string;
  code_hash: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  redirect_uri: string;
  scopes: string;
  code_challenge: string;
  resource: string;
  status: string;
  grant_id: string | null;
  expires_at: string;
  created_at: string;
}

interface GrantRow {
  id: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  scopes: string;
  resource: string;
  status: string;
  created_at: string;
}

interface TokenRow {
  id: string;
  grant_id: string;
  kind: string;
  token_hash: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  scopes: string;
  status: string;
  expires_at: string;
  created_at: string;
}

const list = (json: string): string[] => JSON.parse(json) as string[];

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

const userFromRow = (row: UserRow): UserRecord => ({
  id: row.id,
  email: row.email,
  name: row.name,
  passwordHash: row.password_hash,
  createdAt: row.created_at,
});

const memberFromRow = (row: MemberRow): MemberRecord => ({
  workspaceId: row.workspace_id,
  userId: row.user_id,
  role: row.role as Role,
  status: row.status as MemberRecord['status'],
  createdAt: row.created_at,
  email: row.email,
  name: row.name,
});

const clientFromRow = (row: ClientRow): OAuthClientRecord => ({
  id: row.id,
  name: row.name,
  redirectUris: list(row.redirect_uris),
  scopes: list(row.scopes),
  grantTypes: list(row.grant_types),
  tokenEndpointAuthMethod: row.token_endpoint_auth_method as OAuthClientRecord['tokenEndpointAuthMethod'],
  secretHash: row.secret_hash,
  clientUri: row.client_uri,
  createdAt: row.created_at,
});

const codeFromRow = (row: CodeRow): AuthorizationCodeRecord => ({
  id: row.id,
  codeHash: row.code_hash,
  clientId: row.client_id,
  userId: row.user_id,
  workspaceId: row.workspace_id,
  redirectUri: row.redirect_uri,
  scopes: list(row.scopes),
  codeChallenge: row.code_challenge,
  resource: row.resource,
  status: row.status as AuthorizationCodeRecord['status'],
  grantId: row.grant_id,
  expiresAt: row.expires_at,
  createdAt: row.created_at,
});

const grantFromRow = (row: GrantRow): GrantRecord => ({
  id: row.id,
  clientId: row.client_id,
  userId: row.user_id,
  workspaceId: row.workspace_id,
  scopes: list(row.scopes),
  resource: row.resource,
  status: row.status as GrantRecord['status'],
  createdAt: row.created_at,
});

const tokenFromRow = (row: TokenRow): TokenRecord => ({
  id: row.id,
  grantId: row.grant_id,
  kind: row.kind as TokenRecord['kind'],
  tokenHash: row.token_hash,
  clientId: row.client_id,
  userId: row.user_id,
  workspaceId: row.workspace_id,
  scopes: list(row.scopes),
  status: row.status as TokenRecord['status'],
  expiresAt: row.expires_at,
  createdAt: row.created_at,
});

const memberSelect = `SELECT m.workspace_id, m.user_id, m.role, m.status, m.created_at, u.email, u.name
  FROM members m JOIN users u ON u.id = m.user_id`;

const ids = (rows: unknown[]): string[] => (rows as { id: string }[]).map((row) => row.id);

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

  async setWorkspaceStatus(
    id: string,
    status: WorkspaceRecord['status'],
  ): Promise<{ workspace: WorkspaceRecord; revokedCredentialIds: string[] } | undefined> {
    return this.db.transaction(() => {
      if (this.sql('UPDATE workspaces SET status = ? WHERE id = ?').run(status, id).changes === 0) return undefined;
      const revoked: string[] = [];
      if (status === 'suspended') {
        revoked.push(...ids(this.sql("UPDATE api_keys SET status = 'revoked' WHERE workspace_id = ? AND status = 'active' RETURNING id").all(id)));
        revoked.push(...ids(this.sql("UPDATE oauth_tokens SET status = 'revoked' WHERE workspace_id = ? AND status = 'active' RETURNING id").all(id)));
        this.sql("UPDATE oauth_tokens SET status = 'revoked' WHERE workspace_id = ? AND status = 'used'").run(id);
        this.sql("UPDATE oauth_grants SET status = 'revoked' WHERE workspace_id = ? AND status = 'active'").run(id);
        this.sql("UPDATE oauth_codes SET status = 'revoked' WHERE workspace_id = ? AND status = 'issued'").run(id);
      }
      const row = this.sql('SELECT * FROM workspaces WHERE id = ?').get(id) as WorkspaceRow;
      return { workspace: workspaceFromRow(row), revokedCredentialIds: revoked };
    }).immediate();
  }

  async createUser(user: UserRecord): Promise<boolean> {
    try {
      this.insertUser(user);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async getUser(id: string): Promise<UserRecord | undefined> {
    const row = this.sql('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
    return row ? userFromRow(row) : undefined;
  }

  async findUserByEmail(email: string): Promise<UserRecord | undefined> {
    const row = this.sql('SELECT * FROM users WHERE email = ?').get(email) as UserRow | undefined;
    return row ? userFromRow(row) : undefined;
  }

  async addMember(membership: Omit<MembershipRecord, 'userId'>, user: UserRecord): Promise<AddMemberOutcome> {
    return this.db.transaction((): AddMemberOutcome => {
      const existing = this.sql('SELECT id FROM users WHERE email = ?').get(user.email) as { id: string } | undefined;
      if (!existing) this.insertUser(user);
      const userId = existing?.id ?? user.id;
      if (this.sql('SELECT 1 FROM members WHERE workspace_id = ? AND user_id = ?').get(membership.workspaceId, userId)) {
        return { kind: 'already_member' };
      }
      this.sql('INSERT INTO members (workspace_id, user_id, role, status, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(membership.workspaceId, userId, membership.role, membership.status, membership.createdAt);
      return { kind: 'added', member: this.member(membership.workspaceId, userId)! };
    }).immediate();
  }

  async getMember(workspaceId: string, userId: string): Promise<MemberRecord | undefined> {
    return this.member(workspaceId, userId);
  }

  async listMembers(workspaceId: string, page: Page): Promise<{ members: MemberRecord[]; total: number }> {
    return this.db.transaction(() => {
      const { total } = this.sql('SELECT COUNT(*) AS total FROM members WHERE workspace_id = ?').get(workspaceId) as { total: number };
      const rows = this.sql(`${memberSelect} WHERE m.workspace_id = ? ORDER BY m.created_at DESC, m.user_id DESC LIMIT ? OFFSET ?`)
        .all(workspaceId, page.limit, page.offset) as MemberRow[];
      return { members: rows.map(memberFromRow), total };
    })();
  }

  async changeMember(workspaceId: string, userId: string, expected: MemberState, next: MemberState, revoke: boolean): Promise<MemberChangeOutcome> {
    return this.db.transaction((): MemberChangeOutcome => {
      const refusal = this.checkMemberChange(workspaceId, userId, expected, next);
      if (refusal) return refusal;
      this.sql('UPDATE members SET role = ?, status = ? WHERE workspace_id = ? AND user_id = ?').run(next.role, next.status, workspaceId, userId);
      const revokedCredentialIds = revoke ? this.revokeMemberCredentials(workspaceId, userId) : [];
      return { kind: 'changed', member: this.member(workspaceId, userId), revokedCredentialIds };
    }).immediate();
  }

  async removeMember(workspaceId: string, userId: string, expected: MemberState): Promise<MemberChangeOutcome> {
    return this.db.transaction((): MemberChangeOutcome => {
      const refusal = this.checkMemberChange(workspaceId, userId, expected, undefined);
      if (refusal) return refusal;
      this.sql('DELETE FROM members WHERE workspace_id = ? AND user_id = ?').run(workspaceId, userId);
      return { kind: 'changed', member: undefined, revokedCredentialIds: this.revokeMemberCredentials(workspaceId, userId) };
    }).immediate();
  }

  async activeAccessTokenIds(workspaceId: string, userId: string): Promise<string[]> {
    return ids(
      this.sql("SELECT id FROM oauth_tokens WHERE workspace_id = ? AND user_id = ? AND kind = 'access' AND status = 'active' ORDER BY id")
        .all(workspaceId, userId),
    );
  }

  async membershipsOf(userId: string): Promise<{ workspace: WorkspaceRecord; role: Role }[]> {
    const rows = this.sql(
      `SELECT w.*, m.role AS member_role FROM members m JOIN workspaces w ON w.id = m.workspace_id
       WHERE m.user_id = ? AND m.status = 'active' AND w.status = 'active' ORDER BY m.created_at, w.id`,
    ).all(userId) as (WorkspaceRow & { member_role: string })[];
    return rows.map((row) => ({ workspace: workspaceFromRow(row), role: row.member_role as Role }));
  }

  async createClient(client: OAuthClientRecord): Promise<void> {
    this.sql(
      `INSERT INTO oauth_clients (id, name, redirect_uris, scopes, grant_types, token_endpoint_auth_method, secret_hash, client_uri, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(client.id, client.name, JSON.stringify(client.redirectUris), JSON.stringify(client.scopes), JSON.stringify(client.grantTypes),
      client.tokenEndpointAuthMethod, client.secretHash, client.clientUri, client.createdAt);
  }

  async getClient(id: string): Promise<OAuthClientRecord | undefined> {
    const row = this.sql('SELECT * FROM oauth_clients WHERE id = ?').get(id) as ClientRow | undefined;
    return row ? clientFromRow(row) : undefined;
  }

  async createAuthorizationCode(code: AuthorizationCodeRecord): Promise<void> {
    this.sql(
      `INSERT INTO oauth_codes (id, code_hash, client_id, user_id, workspace_id, redirect_uri, scopes, code_challenge, resource, status, grant_id, expires_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(code.id, code.codeHash, code.clientId, code.userId, code.workspaceId, code.redirectUri, JSON.stringify(code.scopes),
      code.codeChallenge, code.resource, code.status, code.grantId, code.expiresAt, code.createdAt);
  }

  async findAuthorizationCode(codeHash: string): Promise<AuthorizationCodeRecord | undefined> {
    const row = this.sql('SELECT * FROM oauth_codes WHERE code_hash = ?').get(codeHash) as CodeRow | undefined;
    return row ? codeFromRow(row) : undefined;
  }

  async redeemAuthorizationCode(codeId: string, grant: GrantRecord, tokens: TokenRecord[]): Promise<RedeemOutcome> {
    return this.db.transaction((): RedeemOutcome => {
      const claimed = this.sql("UPDATE oauth_codes SET status = 'used', grant_id = ? WHERE id = ? AND status = 'issued'").run(grant.id, codeId);
      if (claimed.changes === 1) {
        this.insertGrant(grant);
        tokens.forEach((token) => this.insertToken(token));
        return { kind: 'redeemed' };
      }
      const code = this.sql('SELECT status, grant_id FROM oauth_codes WHERE id = ?').get(codeId) as { status: string; grant_id: string | null } | undefined;
      if (code?.status !== 'used') return { kind: 'unavailable' };
      return { kind: 'reused', revokedCredentialIds: code.grant_id ? this.revokeGrantNow(code.grant_id) : [] };
    }).immediate();
  }

  async findToken(tokenHash: string): Promise<TokenRecord | undefined> {
    const row = this.sql('SELECT * FROM oauth_tokens WHERE token_hash = ?').get(tokenHash) as TokenRow | undefined;
    return row ? tokenFromRow(row) : undefined;
  }

  async getGrant(id: string): Promise<GrantRecord | undefined> {
    const row = this.sql('SELECT * FROM oauth_grants WHERE id = ?').get(id) as GrantRow | undefined;
    return row ? grantFromRow(row) : undefined;
  }

  async rotateRefreshToken(tokenId: string, tokens: TokenRecord[]): Promise<RotateOutcome> {
    return this.db.transaction((): RotateOutcome => {
      const claimed = this.sql(
        `UPDATE oauth_tokens SET status = 'used' WHERE id = ? AND kind = 'refresh' AND status = 'active'
         AND grant_id IN (SELECT id FROM oauth_grants WHERE status = 'active')`,
      ).run(tokenId);
      if (claimed.changes === 1) {
        tokens.forEach((token) => this.insertToken(token));
        return { kind: 'rotated' };
      }
      const token = this.sql("SELECT status, grant_id FROM oauth_tokens WHERE id = ? AND kind = 'refresh'").get(tokenId) as
        | { status: string; grant_id: string }
        | undefined;
      if (token?.status !== 'used') return { kind: 'unavailable' };
      return { kind: 'reused', revokedCredentialIds: this.revokeGrantNow(token.grant_id) };
    }).immediate();
  }

  async revokeToken(tokenId: string): Promise<string[]> {
    return ids(this.sql("UPDATE oauth_tokens SET status = 'revoked' WHERE id = ? AND status = 'active' RETURNING id").all(tokenId));
  }

  async revokeGrant(grantId: string): Promise<string[]> {
    return this.db.transaction(() => this.revokeGrantNow(grantId)).immediate();
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private member(workspaceId: string, userId: string): MemberRecord | undefined {
    const row = this.sql(`${memberSelect} WHERE m.workspace_id = ? AND m.user_id = ?`).get(workspaceId, userId) as MemberRow | undefined;
    return row ? memberFromRow(row) : undefined;
  }

  /** Why the change may not happen, or undefined; `next` undefined is a removal. */
  private checkMemberChange(workspaceId: string, userId: string, expected: MemberState, next: MemberState | undefined): MemberChangeOutcome | undefined {
    const current = this.sql('SELECT role, status FROM members WHERE workspace_id = ? AND user_id = ?').get(workspaceId, userId) as
      | MemberState
      | undefined;
    if (!current) return { kind: 'not_found' };
    if (current.role !== expected.role || current.status !== expected.status) return { kind: 'stale' };
    const wasActiveOwner = current.role === 'owner' && current.status === 'active';
    const staysActiveOwner = next?.role === 'owner' && next.status === 'active';
    if (wasActiveOwner && !staysActiveOwner) {
      const others = this.sql(
        "SELECT COUNT(*) AS n FROM members WHERE workspace_id = ? AND user_id <> ? AND role = 'owner' AND status = 'active'",
      ).get(workspaceId, userId) as { n: number };
      if (others.n === 0) return { kind: 'last_owner' };
    }
    return undefined;
  }

  /** The member's grants, tokens and unused codes of this one workspace; inside the caller's transaction. */
  private revokeMemberCredentials(workspaceId: string, userId: string): string[] {
    const revoked = ids(
      this.sql("UPDATE oauth_tokens SET status = 'revoked' WHERE workspace_id = ? AND user_id = ? AND status = 'active' RETURNING id")
        .all(workspaceId, userId),
    );
    this.sql("UPDATE oauth_tokens SET status = 'revoked' WHERE workspace_id = ? AND user_id = ? AND status = 'used'").run(workspaceId, userId);
    this.sql("UPDATE oauth_grants SET status = 'revoked' WHERE workspace_id = ? AND user_id = ? AND status = 'active'").run(workspaceId, userId);
    this.sql("UPDATE oauth_codes SET status = 'revoked' WHERE workspace_id = ? AND user_id = ? AND status = 'issued'").run(workspaceId, userId);
    return revoked;
  }

  /** Inside the caller's transaction. */
  private revokeGrantNow(grantId: string): string[] {
    this.sql("UPDATE oauth_grants SET status = 'revoked' WHERE id = ?").run(grantId);
    const revoked = ids(this.sql("UPDATE oauth_tokens SET status = 'revoked' WHERE grant_id = ? AND status = 'active' RETURNING id").all(grantId));
    this.sql("UPDATE oauth_tokens SET status = 'revoked' WHERE grant_id = ? AND status = 'used'").run(grantId);
    return revoked;
  }

  private insertUser(user: UserRecord): void {
    this.sql('INSERT INTO users (id, email, name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(user.id, user.email, user.name, user.passwordHash, user.createdAt);
  }

  private insertGrant(grant: GrantRecord): void {
    this.sql('INSERT INTO oauth_grants (id, client_id, user_id, workspace_id, scopes, resource, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(grant.id, grant.clientId, grant.userId, grant.workspaceId, JSON.stringify(grant.scopes), grant.resource, grant.status, grant.createdAt);
  }

  private insertToken(token: TokenRecord): void {
    this.sql(
      `INSERT INTO oauth_tokens (id, grant_id, kind, token_hash, client_id, user_id, workspace_id, scopes, status, expires_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(token.id, token.grantId, token.kind, token.tokenHash, token.clientId, token.userId, token.workspaceId,
      JSON.stringify(token.scopes), token.status, token.expiresAt, token.createdAt);
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
