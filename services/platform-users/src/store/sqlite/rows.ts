// The SQLite store's rows: each entity's stored form (store/mapping/) with its key columns, and the rows as records.
import { sqliteValues } from '@voice/runtime/store';
import { customDomainFromStored, missingAsJson, type StoredCustomDomain } from '../mapping/custom-domain.js';
import { invitationFromStored, type StoredInvitation } from '../mapping/invitation.js';
import { emailSenderFromStored, type StoredEmailSender } from '../mapping/email-sender.js';
import { mailFromStored, type StoredMail } from '../mapping/mail.js';
import type { CustomDomainRecord, EmailSenderRecord, InvitationRecord, MailRecord } from '../store.js';

export type DomainRow = StoredCustomDomain<string> & { workspace_id: string };
export type InvitationRow = StoredInvitation<number> & { id: string };
export type MailRow = StoredMail & { id: string; recipient: string };
export type EmailSenderRow = StoredEmailSender & { id: string };

export const domainOf = (row: DomainRow): CustomDomainRecord => customDomainFromStored(row.workspace_id, row, missingAsJson);
export const invitationOf = (row: InvitationRow): InvitationRecord => invitationFromStored(row.id, row, sqliteValues);
export const mailOf = (row: MailRow): MailRecord => mailFromStored(row.id, row.recipient, row);
export const emailSenderOf = (row: EmailSenderRow): EmailSenderRecord => emailSenderFromStored(row.id, row);
