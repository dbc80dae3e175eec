// Idempotency claims on sends in SQLite: (workspace, key) names the message its first request made.
import type { StoredClaim } from '../rules.js';
import type { MessageRecord, SendClaim } from '../store.js';
import type { Sql } from './statements.js';

export class SqliteSendClaims {
  constructor(private readonly sql: Sql) {}

  find(workspaceId: string, key: string): StoredClaim | undefined {
    const row = this.sql('SELECT fingerprint, message_id, created_at, first_response FROM send_claims WHERE workspace_id = ? AND key = ?').get(workspaceId, key) as
      | { fingerprint: string; message_id: string; created_at: string; first_response: string | null }
      | undefined;
    if (!row) return undefined;
    const claim: StoredClaim = { fingerprint: row.fingerprint, messageId: row.message_id, createdAt: row.created_at };
    if (row.first_response !== null) claim.firstResponse = JSON.parse(row.first_response) as MessageRecord;
    return claim;
  }

  /** Keeps the accepted message as the first response of the claim that made it, if any. */
  recordFirstResponse(message: MessageRecord): void {
    this.sql('UPDATE send_claims SET first_response = ? WHERE message_id = ?').run(JSON.stringify(message), message.id);
  }

  /** Takes the key for the message, replacing an expired claim. */
  write(workspaceId: string, claim: SendClaim, messageId: string): void {
    this.sql(
      `INSERT INTO send_claims (workspace_id, key, fingerprint, message_id, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (workspace_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, message_id = excluded.message_id, created_at = excluded.created_at,
         first_response = NULL`,
    ).run(workspaceId, claim.key, claim.fingerprint, messageId, claim.now);
  }

  prune(createdBefore: string, limit: number): number {
    return this.sql('DELETE FROM send_claims WHERE rowid IN (SELECT rowid FROM send_claims WHERE created_at < ? ORDER BY created_at LIMIT ?)')
      .run(createdBefore, limit).changes;
  }

  releaseFor(messageId: string): void {
    this.sql('DELETE FROM send_claims WHERE message_id = ?').run(messageId);
  }
}
