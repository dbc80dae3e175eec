// PlatformUsersStore on embedded SQLite: custom domains (one row per workspace, an active domain
// unique platform-wide), invitations and the mail outbox, in one file.
import type Database from 'better-sqlite3';
import { sqliteValues } from '@voice/runtime/store';
import { insertRow, openSqlite, statementCache, type SqliteDatabase } from '@voice/runtime/store/sqlite';
import { customDomainFromStored, missingAsJson, storedCustomDomain, type StoredCustomDomain } from './mapping/custom-domain.js';
import { invitationFromStored, storedInvitation, type StoredInvitation } from './mapping/invitation.js';
import { mailFromStored, storedNewMail, type StoredMail } from './mapping/mail.js';
import { migrations } from './sqlite/migrations.js';
import type {
  CustomDomainRecord,
  InsertDomainOutcome,
  InvitationRecord,
  InvitationStatus,
  MailRecord,
  NewMail,
  PlatformUsersStore,
  VerificationOutcome,
  VerificationResult,
} from './store.js';
import { hasLapsed } from './store.js';

type DomainRow = StoredCustomDomain<string> & { workspace_id: string };
type InvitationRow = StoredInvitation<number> & { id: string };
type MailRow = StoredMail & { id: string; recipient: string };

const domainOf = (row: DomainRow): CustomDomainRecord => customDomainFromStored(row.workspace_id, row, missingAsJson);
const invitationOf = (row: InvitationRow): InvitationRecord => invitationFromStored(row.id, row, sqliteValues);
const mailOf = (row: MailRow): MailRecord => mailFromStored(row.id, row.recipient, row);

export class SqlitePlatformUsersStore implements PlatformUsersStore {
  private readonly db: SqliteDatabase;
  private readonly sql: (text: string) => Database.Statement;

  constructor(file: string) {
    this.db = openSqlite(file, migrations);
    this.sql = statementCache(this.db);
  }

  async insert(record: CustomDomainRecord, now: string): Promise<InsertDomainOutcome> {
    return this.db.transaction((): InsertDomainOutcome => {
      const own = this.sql('SELECT * FROM custom_domains WHERE workspace_id = ?').get(record.workspaceId) as DomainRow | undefined;
      if (own && !hasLapsed(domainOf(own), now)) return { kind: 'workspace_has_domain' };
      if (this.sql("SELECT 1 FROM custom_domains WHERE domain = ? AND status = 'active'").get(record.domain)) return { kind: 'domain_taken' };
      if (own) this.sql('DELETE FROM custom_domains WHERE workspace_id = ?').run(record.workspaceId);
      insertRow(this.sql, 'custom_domains', { workspace_id: record.workspaceId, ...storedCustomDomain(record, missingAsJson) });
      return { kind: 'created', record };
    }).immediate();
  }

  async get(workspaceId: string, now: string): Promise<CustomDomainRecord | undefined> {
    const row = this.sql('SELECT * FROM custom_domains WHERE workspace_id = ?').get(workspaceId) as DomainRow | undefined;
    const record = row ? domainOf(row) : undefined;
    return record && !hasLapsed(record, now) ? record : undefined;
  }

  async recordVerification(workspaceId: string, domain: string, result: VerificationResult): Promise<VerificationOutcome> {
    return this.db.transaction((): VerificationOutcome => {
      if (!this.sql('SELECT 1 FROM custom_domains WHERE workspace_id = ? AND domain = ?').get(workspaceId, domain)) {
        // Dropped by the verification of the workspace that got the domain, while this one was checking DNS.
        const activeElsewhere = result.status === 'active' && this.sql("SELECT 1 FROM custom_domains WHERE domain = ? AND status = 'active'").get(domain);
        return activeElsewhere ? { kind: 'taken' } : { kind: 'gone' };
      }
      if (result.status === 'active') {
        if (this.sql("SELECT 1 FROM custom_domains WHERE domain = ? AND status = 'active' AND workspace_id <> ?").get(domain, workspaceId)) {
          this.sql('DELETE FROM custom_domains WHERE workspace_id = ?').run(workspaceId);
          return { kind: 'taken' };
        }
        this.sql('DELETE FROM custom_domains WHERE domain = ? AND workspace_id <> ?').run(domain, workspaceId);
      }
      this.sql('UPDATE custom_domains SET status = ?, missing = ?, checked_at = ?, verified_at = ?, expires_at = ? WHERE workspace_id = ?').run(
        result.status,
        missingAsJson.encode(result.missing),
        result.checkedAt,
        result.verifiedAt,
        result.expiresAt,
        workspaceId,
      );
      const row = this.sql('SELECT * FROM custom_domains WHERE workspace_id = ?').get(workspaceId) as DomainRow;
      return { kind: 'recorded', record: domainOf(row) };
    }).immediate();
  }

  async remove(workspaceId: string): Promise<CustomDomainRecord | undefined> {
    return this.db.transaction(() => {
      const row = this.sql('SELECT * FROM custom_domains WHERE workspace_id = ?').get(workspaceId) as DomainRow | undefined;
      if (row) this.sql('DELETE FROM custom_domains WHERE workspace_id = ?').run(workspaceId);
      return row ? domainOf(row) : undefined;
    }).immediate();
  }

  async findActive(domain: string): Promise<CustomDomainRecord | undefined> {
    const row = this.sql("SELECT * FROM custom_domains WHERE domain = ? AND status = 'active'").get(domain) as DomainRow | undefined;
    return row ? domainOf(row) : undefined;
  }

  async insertInvitationWithMail(invitation: InvitationRecord, mail: NewMail): Promise<void> {
    this.db.transaction(() => {
      insertRow(this.sql, 'invitations', { id: invitation.id, ...storedInvitation(invitation, sqliteValues) });
      insertRow(this.sql, 'mail_outbox', { id: mail.id, recipient: mail.to, ...storedNewMail(mail) });
    }).immediate();
  }

  async invitationStatuses(userIds: string[]): Promise<Map<string, InvitationStatus>> {
    if (userIds.length === 0) return new Map();
    // One statement per page of users; json_each keeps the SQL text (and its cached statement) fixed.
    const rows = this.sql(
      `SELECT user_id, MAX(accepted_at IS NOT NULL) AS accepted FROM invitations
       WHERE user_id IN (SELECT value FROM json_each(?)) AND workspace_id IS NULL GROUP BY user_id`,
    ).all(JSON.stringify(userIds)) as { user_id: string; accepted: number }[];
    return new Map(rows.map((row) => [row.user_id, row.accepted ? 'accepted' : 'pending']));
  }

  async findInvitationByTokenHash(tokenHash: string): Promise<InvitationRecord | undefined> {
    const row = this.sql('SELECT * FROM invitations WHERE token_hash = ?').get(tokenHash) as InvitationRow | undefined;
    return row ? invitationOf(row) : undefined;
  }

  async markInvitationAccepted(id: string, at: string): Promise<boolean> {
    return this.sql('UPDATE invitations SET accepted_at = ? WHERE id = ? AND accepted_at IS NULL').run(at, id).changes === 1;
  }

  async dueMail(now: string, limit: number): Promise<MailRecord[]> {
    const rows = this.sql(
      `SELECT * FROM mail_outbox WHERE sent_at IS NULL AND next_attempt_at IS NOT NULL AND next_attempt_at <= ?
       ORDER BY next_attempt_at, created_at LIMIT ?`,
    ).all(now, limit) as MailRow[];
    return rows.map(mailOf);
  }

  async leaseMail(id: string, dueAt: string, leaseUntil: string): Promise<boolean> {
    return this.sql('UPDATE mail_outbox SET next_attempt_at = ? WHERE id = ? AND next_attempt_at = ? AND sent_at IS NULL').run(leaseUntil, id, dueAt)
      .changes === 1;
  }

  async markMailSent(id: string, at: string): Promise<void> {
    this.sql('UPDATE mail_outbox SET sent_at = ?, next_attempt_at = NULL, sealed_text = NULL, sealed_html = NULL WHERE id = ?').run(at, id);
  }

  async markMailFailed(id: string, error: string, nextAttemptAt: string | null): Promise<void> {
    this.sql(
      `UPDATE mail_outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?,
         sealed_text = CASE WHEN ? IS NULL THEN NULL ELSE sealed_text END,
         sealed_html = CASE WHEN ? IS NULL THEN NULL ELSE sealed_html END
       WHERE id = ? AND sent_at IS NULL`,
    ).run(error, nextAttemptAt, nextAttemptAt, nextAttemptAt, id);
  }

  async pruneFinishedMail(before: string, limit: number): Promise<number> {
    // Sent after it was created: created before the cut-off is a condition of both kinds, and the index's.
    return this.sql(
      `DELETE FROM mail_outbox WHERE rowid IN
         (SELECT rowid FROM mail_outbox WHERE next_attempt_at IS NULL AND created_at < @before AND IFNULL(sent_at, created_at) < @before
          ORDER BY created_at LIMIT @limit)`,
    ).run({ before, limit }).changes;
  }

  async getMail(id: string): Promise<MailRecord | undefined> {
    const row = this.sql('SELECT * FROM mail_outbox WHERE id = ?').get(id) as MailRow | undefined;
    return row ? mailOf(row) : undefined;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
