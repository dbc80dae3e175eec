// The OAuth 2.0 server's clients, codes, grants and tokens in SQLite.
import type { AuthorizationCodeRecord, GrantRecord, OAuthClientRecord, OAuthStore, RedeemOutcome, RotateOutcome, TokenRecord } from '../store.js';
import { revokeOAuthCredentials } from './revoke.js';
import { clientFromRow, codeFromRow, grantFromRow, ids, tokenFromRow, type ClientRow, type CodeRow, type GrantRow, type TokenRow } from './rows.js';
import { sqliteValues } from '@voice/runtime/store';
import { insertRow } from '@voice/runtime/store/sqlite';
import { storedAuthorizationCode } from '../mapping/authorization-code.js';
import { storedGrant } from '../mapping/grant.js';
import { storedOAuthClient } from '../mapping/oauth-client.js';
import { storedToken } from '../mapping/token.js';
import type { SqliteContext } from './context.js';

export function sqliteOAuthStore({ db, sql }: SqliteContext): OAuthStore {
  async function createClient(client: OAuthClientRecord): Promise<void> {
    insertClient(client, '');
  }

  async function ensureClient(client: OAuthClientRecord): Promise<'created' | 'exists'> {
    return insertClient(client, 'ON CONFLICT (id) DO NOTHING') === 1 ? 'created' : 'exists';
  }

  async function getClient(id: string): Promise<OAuthClientRecord | undefined> {
    const row = sql('SELECT * FROM oauth_clients WHERE id = ?').get(id) as ClientRow | undefined;
    return row ? clientFromRow(row) : undefined;
  }

  async function createAuthorizationCode(code: AuthorizationCodeRecord): Promise<void> {
    insertRow(sql, 'oauth_codes', { id: code.id, ...storedAuthorizationCode(code, sqliteValues) });
  }


  async function findAuthorizationCode(codeHash: string): Promise<AuthorizationCodeRecord | undefined> {
    const row = sql('SELECT * FROM oauth_codes WHERE code_hash = ?').get(codeHash) as CodeRow | undefined;
    return row ? codeFromRow(row) : undefined;
  }

  async function redeemAuthorizationCode(codeId: string, grant: GrantRecord, tokens: TokenRecord[]): Promise<RedeemOutcome> {
    return db.transaction((): RedeemOutcome => {
      const claimed = sql("UPDATE oauth_codes SET status = 'used', grant_id = ? WHERE id = ? AND status = 'issued'").run(grant.id, codeId);
      if (claimed.changes === 1) {
        insertGrant(grant);
        tokens.forEach((token) => insertToken(token));
        return { kind: 'redeemed' };
      }
      const code = sql('SELECT status, grant_id FROM oauth_codes WHERE id = ?').get(codeId) as { status: string; grant_id: string | null } | undefined;
      if (code?.status !== 'used') return { kind: 'unavailable' };
      return { kind: 'reused', revokedCredentialIds: code.grant_id ? revokeGrantNow(code.grant_id) : [] };
    }).immediate();
  }

  async function issueGrant(grant: GrantRecord, tokens: TokenRecord[]): Promise<void> {
    db.transaction(() => {
      insertGrant(grant);
      tokens.forEach((token) => insertToken(token));
    }).immediate();
  }

  async function findToken(tokenHash: string): Promise<TokenRecord | undefined> {
    const row = sql('SELECT * FROM oauth_tokens WHERE token_hash = ?').get(tokenHash) as TokenRow | undefined;
    return row ? tokenFromRow(row) : undefined;
  }

  async function getGrant(id: string): Promise<GrantRecord | undefined> {
    const row = sql('SELECT * FROM oauth_grants WHERE id = ?').get(id) as GrantRow | undefined;
    return row ? grantFromRow(row) : undefined;
  }

  async function rotateRefreshToken(tokenId: string, tokens: TokenRecord[]): Promise<RotateOutcome> {
    return db.transaction((): RotateOutcome => {
      const claimed = sql(
        `UPDATE oauth_tokens SET status = 'used' WHERE id = ? AND kind = 'refresh' AND status = 'active'
         AND grant_id IN (SELECT id FROM oauth_grants WHERE status = 'active')`,
      ).run(tokenId);
      if (claimed.changes === 1) {
        tokens.forEach((token) => insertToken(token));
        return { kind: 'rotated' };
      }
      const token = sql("SELECT status, grant_id FROM oauth_tokens WHERE id = ? AND kind = 'refresh'").get(tokenId) as
        | { status: string; grant_id: string }
        | undefined;
      if (token?.status !== 'used') return { kind: 'unavailable' };
      return { kind: 'reused', revokedCredentialIds: revokeGrantNow(token.grant_id) };
    }).immediate();
  }

  async function revokeToken(tokenId: string): Promise<string[]> {
    return ids(sql("UPDATE oauth_tokens SET status = 'revoked' WHERE id = ? AND status = 'active' RETURNING id").all(tokenId));
  }

  async function revokeGrant(grantId: string): Promise<string[]> {
    return db.transaction(() => revokeGrantNow(grantId)).immediate();
  }

  async function revokeUserCredentials(workspaceId: string, userId: string): Promise<string[]> {
    return db.transaction(() => revokeOAuthCredentials(sql, { where: 'workspace_id = ? AND user_id = ?', params: [workspaceId, userId] })).immediate();
  }

  async function pruneAuthorizationCodes(expiredBefore: string, limit: number): Promise<number> {
    return sql('DELETE FROM oauth_codes WHERE rowid IN (SELECT rowid FROM oauth_codes WHERE expires_at < ? ORDER BY expires_at LIMIT ?)').run(expiredBefore, limit).changes;
  }

  async function pruneTokens(expiredBefore: string, limit: number): Promise<number> {
    return sql('DELETE FROM oauth_tokens WHERE rowid IN (SELECT rowid FROM oauth_tokens WHERE expires_at < ? ORDER BY expires_at LIMIT ?)').run(expiredBefore, limit).changes;
  }

  async function pruneGrants(createdBefore: string, limit: number): Promise<number> {
    return sql(
      `DELETE FROM oauth_grants WHERE rowid IN
         (SELECT rowid FROM oauth_grants AS grants WHERE created_at < ? AND NOT EXISTS (SELECT 1 FROM oauth_tokens WHERE grant_id = grants.id)
          ORDER BY created_at LIMIT ?)`,
    ).run(createdBefore, limit).changes;
  }

  /** Inside the caller's transaction. */
  function revokeGrantNow(grantId: string): string[] {
    sql("UPDATE oauth_grants SET status = 'revoked' WHERE id = ?").run(grantId);
    const revoked = ids(sql("UPDATE oauth_tokens SET status = 'revoked' WHERE grant_id = ? AND status = 'active' RETURNING id").all(grantId));
    sql("UPDATE oauth_tokens SET status = 'revoked' WHERE grant_id = ? AND status = 'used'").run(grantId);
    return revoked;
  }

  /** The number of rows inserted. */
  function insertClient(client: OAuthClientRecord, onConflict: '' | 'ON CONFLICT (id) DO NOTHING'): number {
    return sql(
      `INSERT INTO oauth_clients (id, name, redirect_uris, scopes, grant_types, token_endpoint_auth_method, secret_hash, client_uri, realm_id, created_at)
       VALUES (@id, @name, @redirect_uris, @scopes, @grant_types, @token_endpoint_auth_method, @secret_hash, @client_uri, @realm_id, @created_at) ${onConflict}`,
    ).run({ id: client.id, ...storedOAuthClient(client, sqliteValues) }).changes;
  }

  function insertGrant(grant: GrantRecord): void {
    insertRow(sql, 'oauth_grants', { id: grant.id, ...storedGrant(grant, sqliteValues) });
  }


  function insertToken(token: TokenRecord): void {
    insertRow(sql, 'oauth_tokens', { id: token.id, ...storedToken(token, sqliteValues) });
  }


  return { createClient, ensureClient, getClient, createAuthorizationCode, findAuthorizationCode, redeemAuthorizationCode, issueGrant, findToken, getGrant, rotateRefreshToken, revokeToken, revokeGrant, revokeUserCredentials, pruneAuthorizationCodes, pruneTokens, pruneGrants };
}
