// Revokes the OAuth credentials (tokens, grants, unused codes) that a condition selects; runs
// inside the caller's transaction, so the revocation commits with the change that caused it.
import type { Sql } from './context.js';
import { ids } from './rows.js';

/** The condition names columns common to those tables: workspace_id, and optionally user_id. */
export type CredentialScope = { where: 'workspace_id = ?'; params: [string] } | { where: 'workspace_id = ? AND user_id = ?'; params: [string, string] };

/** Returns the ids of the access and refresh tokens that were still active. */
export function revokeOAuthCredentials(sql: Sql, scope: CredentialScope): string[] {
  const revoked = ids(sql(`UPDATE oauth_tokens SET status = 'revoked' WHERE ${scope.where} AND status = 'active' RETURNING id`).all(...scope.params));
  sql(`UPDATE oauth_tokens SET status = 'revoked' WHERE ${scope.where} AND status = 'used'`).run(...scope.params);
  sql(`UPDATE oauth_grants SET status = 'revoked' WHERE ${scope.where} AND status = 'active'`).run(...scope.params);
  sql(`UPDATE oauth_codes SET status = 'revoked' WHERE ${scope.where} AND status = 'issued'`).run(...scope.params);
  return revoked;
}
