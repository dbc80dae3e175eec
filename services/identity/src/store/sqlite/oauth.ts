// The OAuth 2.0 server's clients, codes, grants and tokens in SQLite.
import type Database from 'better-sqlite3';
import type { SqliteDatabase } from '@voice/runtime/store/sqlite';
import type { AuthorizationCodeRecord, GrantRecord, OAuthClientRecord, OAuthStore, RedeemOutcome, RotateOutcome, TokenRecord } from '../store.js';
import { revokeOAuthCredentials } from './revoke.js';
import { clientFromRow, codeFromRow, grantFromRow, ids, tokenFromRow, type ClientRow, type CodeRow, type GrantRow, type TokenRow } from './rows.js';

export class SqliteOAuthStore implements OAuthStore {
  constructor(private readonly db: SqliteDatabase, private readonly sql: (text: string) => Database.Statement) {}

  async createClient(client: OAuthClientRecord): Promise<void> {
    this.insertClient(client, '');
  }

  async ensureClient(client: OAuthClientRecord): Promise<'created' | 'exists'> {
    return this.insertClient(client, 'ON CONFLICT (id) DO NOTHING') === 1 ? 'created' : 'exists';
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

  async issueGrant(grant: GrantRecord, tokens: TokenRecord[]): Promise<void> {
    this.db.transaction(() => {
      this.insertGrant(grant);
      tokens.forEach((token) => this.insertToken(token));
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

  async revokeUserCredentials(workspaceId: string, userId: string): Promise<string[]> {
    return this.db.transaction(() => revokeOAuthCredentials(this.sql, { where: 'workspace_id = ? AND user_id = ?', params: [workspaceId, userId] })).immediate();
  }

  /** Inside the caller's transaction. */
  private revokeGrantNow(grantId: string): string[] {
    this.sql("UPDATE oauth_grants SET status = 'revoked' WHERE id = ?").run(grantId);
    const revoked = ids(this.sql("UPDATE oauth_tokens SET status = 'revoked' WHERE grant_id = ? AND status = 'active' RETURNING id").all(grantId));
    this.sql("UPDATE oauth_tokens SET status = 'revoked' WHERE grant_id = ? AND status = 'used'").run(grantId);
    return revoked;
  }

  /** The number of rows inserted. */
  private insertClient(client: OAuthClientRecord, onConflict: '' | 'ON CONFLICT (id) DO NOTHING'): number {
    return this.sql(
      `INSERT INTO oauth_clients (id, name, redirect_uris, scopes, grant_types, token_endpoint_auth_method, secret_hash, client_uri, realm_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ${onConflict}`,
    ).run(client.id, client.name, JSON.stringify(client.redirectUris), JSON.stringify(client.scopes), JSON.stringify(client.grantTypes),
      client.tokenEndpointAuthMethod, client.secretHash, client.clientUri, client.realmId, client.createdAt).changes;
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
}
