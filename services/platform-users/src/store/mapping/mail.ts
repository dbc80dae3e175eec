// A queued e-mail's stored form, but for its id and its recipient (SQLite's column is `recipient`,
// MongoDB's field `to`), and its mapping to and from the record; the bodies stay sealed.
import type { MailRecord, NewMail } from '../store.js';

export interface StoredMail {
  subject: string;
  sealed_text: string | null;
  sealed_html: string | null;
  attempts: number;
  next_attempt_at: string | null;
  sent_at: string | null;
  last_error: string | null;
  created_at: string;
  // Absent from mail stored before workspaces sent their own (MongoDB documents): read as null.
  from_address?: string | null;
  workspace_id?: string | null;
  sender_id?: string | null;
  call_id?: string | null;
}

/** A new message: no attempt yet, due at once; or, when it carries a failure, given up at once. */
export const storedNewMail = (mail: NewMail): StoredMail => ({
  subject: mail.subject,
  sealed_text: mail.failure === undefined ? mail.sealedText : null,
  sealed_html: mail.failure === undefined ? mail.sealedHtml : null,
  attempts: 0,
  next_attempt_at: mail.failure === undefined ? mail.createdAt : null,
  sent_at: null,
  last_error: mail.failure ?? null,
  created_at: mail.createdAt,
  from_address: mail.from ?? null,
  workspace_id: mail.workspace?.workspaceId ?? null,
  sender_id: mail.workspace?.senderId ?? null,
  call_id: mail.workspace?.callId ?? null,
});

export const mailFromStored = (id: string, to: string, s: StoredMail): MailRecord => ({
  id,
  to,
  subject: s.subject,
  sealedText: s.sealed_text,
  sealedHtml: s.sealed_html,
  attempts: s.attempts,
  nextAttemptAt: s.next_attempt_at,
  sentAt: s.sent_at,
  lastError: s.last_error,
  createdAt: s.created_at,
  from: s.from_address ?? null,
  workspace: s.workspace_id ? { workspaceId: s.workspace_id, senderId: s.sender_id ?? '', callId: s.call_id ?? null } : null,
});
