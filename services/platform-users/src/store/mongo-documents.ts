// The MongoDB documents of the platform-users store, their indexes, and the documents as records.
import type { Collection } from 'mongodb';
import type { CustomDomainRecord, InvitationRecord, MailRecord } from './store.js';

/** The workspace id is the document id: one domain per workspace. */
export interface DomainDocument {
  _id: string;
  domain: string;
  token: string;
  status: string;
  missing: CustomDomainRecord['missing'];
  created_at: string;
  checked_at: string | null;
  verified_at: string | null;
  /** Absent on documents written before claims lapsed: they never do. */
  expires_at?: string | null;
}

export interface InvitationDocument {
  _id: string;
  token_hash: string;
  user_id: string;
  platform_workspace_id: string;
  /** Absent on invitations written before member invitations: a registration's. */
  workspace_id?: string | null;
  sign_in?: boolean;
  email: string;
  name: string;
  expires_at: string;
  accepted_at: string | null;
  created_at: string;
}

export interface MailDocument {
  _id: string;
  to: string;
  subject: string;
  sealed_text: string | null;
  sealed_html: string | null;
  attempts: number;
  next_attempt_at: string | null;
  sent_at: string | null;
  last_error: string | null;
  created_at: string;
}

export interface Collections {
  domains: Collection<DomainDocument>;
  invitations: Collection<InvitationDocument>;
  mail: Collection<MailDocument>;
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
}

export const domainOf = (doc: DomainDocument): CustomDomainRecord => ({
  workspaceId: doc._id,
  domain: doc.domain,
  token: doc.token,
  status: doc.status as CustomDomainRecord['status'],
  missing: doc.missing,
  createdAt: doc.created_at,
  checkedAt: doc.checked_at,
  verifiedAt: doc.verified_at,
  expiresAt: doc.expires_at ?? null,
});

export const invitationOf = (doc: InvitationDocument): InvitationRecord => ({
  id: doc._id,
  tokenHash: doc.token_hash,
  userId: doc.user_id,
  platformWorkspaceId: doc.platform_workspace_id,
  workspaceId: doc.workspace_id ?? null,
  signIn: doc.sign_in ?? false,
  email: doc.email,
  name: doc.name,
  expiresAt: doc.expires_at,
  acceptedAt: doc.accepted_at,
  createdAt: doc.created_at,
});

export const mailOf = (doc: MailDocument): MailRecord => ({
  id: doc._id,
  to: doc.to,
  subject: doc.subject,
  sealedText: doc.sealed_text,
  sealedHtml: doc.sealed_html,
  attempts: doc.attempts,
  nextAttemptAt: doc.next_attempt_at,
  sentAt: doc.sent_at,
  lastError: doc.last_error,
  createdAt: doc.created_at,
});
