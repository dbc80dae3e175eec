// An e-mail sender's stored form, but for its id, and its mapping to and from the record.
import type { EmailSenderRecord, EmailSenderStatus } from '../store.js';

export interface StoredEmailSender {
  workspace_id: string;
  address: string;
  name: string;
  status: EmailSenderStatus;
  confirmation_hash: string | null;
  created_at: string;
  verified_at: string | null;
}

export const storedEmailSender = (record: EmailSenderRecord): StoredEmailSender => ({
  workspace_id: record.workspaceId,
  address: record.address,
  name: record.name,
  status: record.status,
  confirmation_hash: record.confirmationHash,
  created_at: record.createdAt,
  verified_at: record.verifiedAt,
});

export const emailSenderFromStored = (id: string, s: StoredEmailSender): EmailSenderRecord => ({
  id,
  workspaceId: s.workspace_id,
  address: s.address,
  name: s.name,
  status: s.status,
  confirmationHash: s.confirmation_hash,
  createdAt: s.created_at,
  verifiedAt: s.verified_at,
});
