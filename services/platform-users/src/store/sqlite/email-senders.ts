// E-mail senders in SQLite.
import { insertRow } from '@voice/runtime/store/sqlite';
import type { Page } from '@voice/runtime/validation';
import { storedEmailSender } from '../mapping/email-sender.js';
import { storedNewMail } from '../mapping/mail.js';
import { emailSenderOf, type EmailSenderRow } from './rows.js';
import type { EmailSenderRecord, EmailSenderStore, NewMail } from '../store.js';
import type { SqliteContext } from './context.js';

export function sqliteEmailSenderStore({ db, sql }: SqliteContext): EmailSenderStore {
  async function insertSenderWithMail(record: EmailSenderRecord, mail: NewMail): Promise<'created' | 'address_taken'> {
    return db.transaction(() => {
      if (insertRow(sql, 'email_senders', { id: record.id, ...storedEmailSender(record) }, { ifAbsent: true }) === 0) return 'address_taken' as const;
      insertRow(sql, 'mail_outbox', { id: mail.id, recipient: mail.to, ...storedNewMail(mail) });
      return 'created' as const;
    }).immediate();
  }

  async function listSenders(workspaceId: string, page: Page): Promise<{ senders: EmailSenderRecord[]; total: number }> {
    return db.transaction(() => {
      const { total } = sql('SELECT COUNT(*) AS total FROM email_senders WHERE workspace_id = ?').get(workspaceId) as { total: number };
      const rows = sql('SELECT * FROM email_senders WHERE workspace_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?').all(workspaceId, page.limit, page.offset) as EmailSenderRow[];
      return { senders: rows.map(emailSenderOf), total };
    })();
  }

  async function getSender(workspaceId: string, id: string): Promise<EmailSenderRecord | undefined> {
    const row = sql('SELECT * FROM email_senders WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as EmailSenderRow | undefined;
    return row ? emailSenderOf(row) : undefined;
  }

  async function getSenderById(id: string): Promise<EmailSenderRecord | undefined> {
    const row = sql('SELECT * FROM email_senders WHERE id = ?').get(id) as EmailSenderRow | undefined;
    return row ? emailSenderOf(row) : undefined;
  }

  async function deleteSender(workspaceId: string, id: string): Promise<boolean> {
    return sql('DELETE FROM email_senders WHERE id = ? AND workspace_id = ?').run(id, workspaceId).changes === 1;
  }

  async function verifySender(id: string, confirmationHash: string, at: string): Promise<EmailSenderRecord | undefined> {
    const row = sql(
      `UPDATE email_senders SET status = 'verified', confirmation_hash = NULL, verified_at = ?
       WHERE id = ? AND status = 'pending' AND confirmation_hash = ? RETURNING *`,
    ).get(at, id, confirmationHash) as EmailSenderRow | undefined;
    return row ? emailSenderOf(row) : undefined;
  }

  return { insertSenderWithMail, listSenders, getSender, getSenderById, deleteSender, verifySender };
}
