// Invitations, each written with its e-mail in SQLite.
import { sqliteValues } from '@voice/runtime/store';
import { insertRow } from '@voice/runtime/store/sqlite';
import { storedInvitation } from '../mapping/invitation.js';
import { storedNewMail } from '../mapping/mail.js';
import { invitationOf, type InvitationRow } from './rows.js';
import type { InvitationRecord, InvitationStatus, InvitationStore, NewMail } from '../store.js';
import type { SqliteContext } from './context.js';

export function sqliteInvitationStore({ db, sql }: SqliteContext): InvitationStore {
  async function insertInvitationWithMail(invitation: InvitationRecord, mail: NewMail): Promise<void> {
    db.transaction(() => {
      insertRow(sql, 'invitations', { id: invitation.id, ...storedInvitation(invitation, sqliteValues) });
      insertRow(sql, 'mail_outbox', { id: mail.id, recipient: mail.to, ...storedNewMail(mail) });
    }).immediate();
  }

  async function invitationStatuses(userIds: string[]): Promise<Map<string, InvitationStatus>> {
    if (userIds.length === 0) return new Map();
    // One statement per page of users; json_each keeps the SQL text (and its cached statement) fixed.
    const rows = sql(
      `SELECT user_id, MAX(accepted_at IS NOT NULL) AS accepted FROM invitations
       WHERE user_id IN (SELECT value FROM json_each(?)) AND workspace_id IS NULL GROUP BY user_id`,
    ).all(JSON.stringify(userIds)) as { user_id: string; accepted: number }[];
    return new Map(rows.map((row) => [row.user_id, row.accepted ? 'accepted' : 'pending']));
  }

  async function findInvitationByTokenHash(tokenHash: string): Promise<InvitationRecord | undefined> {
    const row = sql('SELECT * FROM invitations WHERE token_hash = ?').get(tokenHash) as InvitationRow | undefined;
    return row ? invitationOf(row) : undefined;
  }

  async function markInvitationAccepted(id: string, at: string): Promise<boolean> {
    return sql('UPDATE invitations SET accepted_at = ? WHERE id = ? AND accepted_at IS NULL').run(at, id).changes === 1;
  }

  return { insertInvitationWithMail, invitationStatuses, findInvitationByTokenHash, markInvitationAccepted };
}
