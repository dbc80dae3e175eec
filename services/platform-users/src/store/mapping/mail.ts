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
}

/** A new message: no attempt yet, due at once. */
export const storedNewMail = (mail: NewMail): StoredMail => ({
  subject: mail.subject,
  sealed_text: mail.sealedText,
  sealed_html: mail.sealedHtml,
  attempts: 0,
  next_attempt_at: mail.createdAt,
  sent_at: null,
  last_error: null,
  created_at: mail.createdAt,
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
});
