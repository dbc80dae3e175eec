// The MongoDB documents of the platform-users store (each entity's stored form, store/mapping/, under
// _id), their collections and indexes, and the documents as records.
import type { Collection } from 'mongodb';
import { mongoValues } from '@voice/runtime/store';
import { customDomainFromStored, missingAsIs, type StoredCustomDomain } from '../mapping/custom-domain.js';
import { invitationFromStored, type StoredInvitation } from '../mapping/invitation.js';
import { emailSenderFromStored, type StoredEmailSender } from '../mapping/email-sender.js';
import { mailFromStored, type StoredMail } from '../mapping/mail.js';
import type { CustomDomainRecord, EmailSenderRecord, InvitationRecord, MailRecord } from '../store.js';

/** The workspace id is the document id: one domain per workspace. */
export type DomainDocument = StoredCustomDomain<CustomDomainRecord['missing']> & { _id: string };
export type InvitationDocument = StoredInvitation<boolean> & { _id: string };
export type MailDocument = StoredMail & { _id: string; to: string };
export type EmailSenderDocument = StoredEmailSender & { _id: string };

export interface Collections {
  domains: Collection<DomainDocument>;
  invitations: Collection<InvitationDocument>;
  mail: Collection<MailDocument>;
  senders: Collection<EmailSenderDocument>;
}

/** Creates the indexes (and with them the collections, which a transaction cannot create everywhere). */
export async function ensureIndexes(collections: Collections): Promise<void> {
  // Only an active domain is unique: pending claims of several workspaces may coexist.
  await collections.domains.dropIndex('unique_domain').catch(() => undefined);
  await collections.domains.createIndex({ domain: 1 }, { unique: true, name: 'unique_active_domain', partialFilterExpression: { status: 'active' } });
  await collections.domains.createIndex({ domain: 1, status: 1 }, { name: 'by_domain' });
  await collections.invitations.createIndex({ token_hash: 1 }, { unique: true, name: 'unique_token_hash' });
  await collections.invitations.createIndex({ user_id: 1 }, { name: 'by_user' });
  await collections.mail.createIndex({ sent_at: 1, next_attempt_at: 1, created_at: 1 }, { name: 'due' });
  await collections.mail.createIndex({ next_attempt_at: 1, created_at: 1 }, { name: 'finished' });
  await collections.mail.createIndex({ workspace_id: 1, created_at: -1, _id: -1 }, { name: 'by_workspace', partialFilterExpression: { workspace_id: { $type: 'string' } } });
  await collections.senders.createIndex({ workspace_id: 1, address: 1 }, { unique: true, name: 'unique_address' });
  await collections.senders.createIndex({ workspace_id: 1, created_at: 1, _id: 1 }, { name: 'oldest_first' });
}

export const domainOf = (doc: DomainDocument): CustomDomainRecord => customDomainFromStored(doc._id, doc, missingAsIs);
export const invitationOf = (doc: InvitationDocument): InvitationRecord => invitationFromStored(doc._id, doc, mongoValues);
export const mailOf = (doc: MailDocument): MailRecord => mailFromStored(doc._id, doc.to, doc);
export const emailSenderOf = (doc: EmailSenderDocument): EmailSenderRecord => emailSenderFromStored(doc._id, doc);
