// Idempotency claims on sends in SQLite: (workspace, key) names the message its first request made.
import type { StoredClaim } from '../rules.js';
import type { SendClaim } from '../store.js';
import type { Sql } from './statements.js';

export class SqliteSendClaims {
  constructor(private readonly sql: Sql) {}

  find(workspaceId: string, key: string): StoredClaim | undefined {
    return this.sql('SELECT fingerprint, message_id AS messageId, created_at AS createdAt FROM send_claims WHERE workspace_id = ? AND key = ?')
      .get(workspaceId, key) as StoredClaim | undefined;
  }

  /** Takes the key for the message, replacing an expired claim. */
  write(workspaceId: string, claim: SendClaim, messageId: string): void {
    this.sql(
      `INSERT INTO send_claims (workspace_id, key, fingerprint, message_id, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (workspace_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, message_id = excluded.message_id, created_at = excluded.created_at`,
    ).run(workspaceId, claim.key, claim.fingerprint, messageId, claim.now);
  }

  releaseFor(messageId: string): void {
    this.sql('DELETE FROM send_claims WHERE message_id = ?').run(messageId);
  }
}
