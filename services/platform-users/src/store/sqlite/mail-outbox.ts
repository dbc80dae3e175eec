// The mail outbox in SQLite.
import { insertRow } from '@voice/runtime/store/sqlite';
import { mailOf, type MailRow } from './rows.js';
import type { Page } from '@voice/runtime/validation';
import type { MailOutboxStore, MailRecord, NewMail, WorkspaceMailFilter } from '../store.js';
import { storedNewMail } from '../mapping/mail.js';
import type { SqliteContext } from './context.js';

export function sqliteMailOutboxStore({ db, sql }: SqliteContext): MailOutboxStore {
  async function queueMail(mails: NewMail[]): Promise<number> {
    return db.transaction(() => {
      let queued = 0;
      for (const mail of mails) queued += insertRow(sql, 'mail_outbox', { id: mail.id, recipient: mail.to, ...storedNewMail(mail) }, { ifAbsent: true });
      return queued;
    }).immediate();
  }

  async function dueMail(now: string, limit: number): Promise<MailRecord[]> {
    const rows = sql(
      `SELECT * FROM mail_outbox WHERE sent_at IS NULL AND next_attempt_at IS NOT NULL AND next_attempt_at <= ?
       ORDER BY next_attempt_at, created_at LIMIT ?`,
    ).all(now, limit) as MailRow[];
    return rows.map(mailOf);
  }

  async function leaseMail(id: string, dueAt: string, leaseUntil: string): Promise<boolean> {
    return sql('UPDATE mail_outbox SET next_attempt_at = ? WHERE id = ? AND next_attempt_at = ? AND sent_at IS NULL').run(leaseUntil, id, dueAt)
      .changes === 1;
  }

  async function markMailSent(id: string, at: string): Promise<void> {
    sql('UPDATE mail_outbox SET sent_at = ?, next_attempt_at = NULL, sealed_text = NULL, sealed_html = NULL WHERE id = ?').run(at, id);
  }

  async function markMailFailed(id: string, error: string, nextAttemptAt: string | null): Promise<void> {
    sql(
      `UPDATE mail_outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?,
         sealed_text = CASE WHEN ? IS NULL THEN NULL ELSE sealed_text END,
         sealed_html = CASE WHEN ? IS NULL THEN NULL ELSE sealed_html END
       WHERE id = ? AND sent_at IS NULL`,
    ).run(error, nextAttemptAt, nextAttemptAt, nextAttemptAt, id);
  }

  async function pruneFinishedMail(before: string, limit: number): Promise<number> {
    // Sent after it was created: created before the cut-off is a condition of both kinds, and the index's.
    return sql(
      `DELETE FROM mail_outbox WHERE rowid IN
         (SELECT rowid FROM mail_outbox WHERE next_attempt_at IS NULL AND workspace_id IS NULL AND created_at < @before AND IFNULL(sent_at, created_at) < @before
          ORDER BY created_at LIMIT @limit)`,
    ).run({ before, limit }).changes;
  }

  async function getMail(id: string): Promise<MailRecord | undefined> {
    const row = sql('SELECT * FROM mail_outbox WHERE id = ?').get(id) as MailRow | undefined;
    return row ? mailOf(row) : undefined;
  }

  async function listWorkspaceMail(workspaceId: string, filter: WorkspaceMailFilter, page: Page): Promise<{ mails: MailRecord[]; total: number }> {
    const conditions = ['workspace_id = @workspaceId'];
    if (filter.address !== undefined) conditions.push('(recipient = @address OR from_address = @address)');
    if (filter.createdFrom !== undefined) conditions.push('created_at >= @createdFrom');
    if (filter.createdTo !== undefined) conditions.push('created_at < @createdTo');
    const where = conditions.join(' AND ');
    const params = { workspaceId, ...filter, limit: page.limit, offset: page.offset };
    return db.transaction(() => {
      const { total } = sql(`SELECT COUNT(*) AS total FROM mail_outbox WHERE ${where}`).get(params) as { total: number };
      const rows = sql(`SELECT * FROM mail_outbox WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`).all(params) as MailRow[];
      return { mails: rows.map(mailOf), total };
    })();
  }

  async function getWorkspaceMail(workspaceId: string, id: string): Promise<MailRecord | undefined> {
    const row = sql('SELECT * FROM mail_outbox WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as MailRow | undefined;
    return row ? mailOf(row) : undefined;
  }

  return { dueMail, leaseMail, markMailSent, markMailFailed, pruneFinishedMail, getMail, queueMail, listWorkspaceMail, getWorkspaceMail };
}
