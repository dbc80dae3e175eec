// The platform-users service's persistence, in its own words; SQLite and MongoDB adapters
// implement it and one contract suite (test/store.contract.ts) holds them to the same behaviour.
import type { Page } from '@voice/runtime/validation';
import type { DnsCheckResult } from '../custom-domains/dns-lookup.js';

export type CustomDomainStatus = 'pending_verification' | 'active';

/**
 * One workspace's claim to a domain. Any number of workspaces may claim a domain while it is
 * pending; the first to verify it makes it active (an active domain is unique across the platform)
 * and the other claims are dropped. A pending claim lapses at expiresAt, so nobody holds a domain
 * they cannot prove.
 */
export interface CustomDomainRecord {
  workspaceId: string;
  /** Canonical name; unique among active domains. */
  domain: string;
  /** Published in the TXT record; proves control of the zone, so it is not a secret. */
  token: string;
  status: CustomDomainStatus;
  /** What the last verification did not find. */
  missing: DnsCheckResult[];
  createdAt: string;
  checkedAt: string | null;
  verifiedAt: string | null;
  /** When a pending claim lapses; null while the domain is active. */
  expiresAt: string | null;
}

/** A pending claim whose time ran out: it no longer holds the domain nor counts as the workspace's. */
export const hasLapsed = (record: CustomDomainRecord, now: string): boolean =>
  record.status === 'pending_verification' && record.expiresAt !== null && record.expiresAt <= now;

export interface VerificationResult {
  status: CustomDomainStatus;
  missing: DnsCheckResult[];
  checkedAt: string;
  verifiedAt: string | null;
  expiresAt: string | null;
}

export type InsertDomainOutcome =
  | { kind: 'created'; record: CustomDomainRecord }
  /** The workspace already has a domain (one per workspace). */
  | { kind: 'workspace_has_domain' }
  /** Another workspace has verified this domain: it is active there. */
  | { kind: 'domain_taken' };

export type VerificationOutcome =
  | { kind: 'recorded'; record: CustomDomainRecord }
  /** The workspace removed or replaced the domain meanwhile, or its claim lapsed or was dropped. */
  | { kind: 'gone' }
  /** Another workspace verified the domain first (now, or while this one was checking DNS): this claim is dropped. */
  | { kind: 'taken' };

export interface CustomDomainStore {
  /** A new claim; the workspace's lapsed claim (pending past its expiresAt at `now`) no longer counts. */
  insert(record: CustomDomainRecord, now: string): Promise<InsertDomainOutcome>;
  /** The workspace's domain; a lapsed claim is none. */
  get(workspaceId: string, now: string): Promise<CustomDomainRecord | undefined>;
  /**
   * Stores a verification of `domain`. Made active, it drops every other workspace's claim to the
   * domain in the same transaction; when another workspace's is active already, this claim is dropped.
   */
  recordVerification(workspaceId: string, domain: string, result: VerificationResult): Promise<VerificationOutcome>;
  remove(workspaceId: string): Promise<CustomDomainRecord | undefined>;
  /** The active domain with this canonical name, if any. */
  findActive(domain: string): Promise<CustomDomainRecord | undefined>;
}

/**
 * An invitation: of a platform's user who was registered without a password, or to join a
 * workspace as its pending member (`workspaceId`).
 */
export interface InvitationRecord {
  id: string;
  /** SHA-256 (hex) of the token in the e-mailed link; the token itself is never stored. */
  tokenHash: string;
  userId: string;
  /** The platform whose realm the user is of: its name and custom domain are the link's. */
  platformWorkspaceId: string;
  /** The workspace a member invitation joins; null for a platform's new user choosing a password. */
  workspaceId: string | null;
  /** True when the invitee already had a password when invited and accepts by signing in with it. */
  signIn: boolean;
  email: string;
  name: string;
  expiresAt: string;
  acceptedAt: string | null;
  createdAt: string;
}

export type InvitationStatus = 'pending' | 'accepted';

/** A message waiting in (or gone through) the mail outbox. */
export interface MailRecord {
  id: string;
  to: string;
  subject: string;
  /** SecretBox-sealed bodies (they carry the invitation token); null once sent or given up. */
  sealedText: string | null;
  sealedHtml: string | null;
  /** Failed sending attempts so far. */
  attempts: number;
  /** When the relay should try next; null once sent or given up. */
  nextAttemptAt: string | null;
  sentAt: string | null;
  lastError: string | null;
  createdAt: string;
  /** The From address; null sends from the platform's (VOICE_MAIL_FROM). */
  from: string | null;
  /** Set for a workspace's own e-mail (kept as its history, never pruned); null for the platform's mail. */
  workspace: WorkspaceMailOrigin | null;
}

/** Whose e-mail a workspace's message is: its workspace, the verified sender it goes out from, the call it is about. */
export interface WorkspaceMailOrigin {
  workspaceId: string;
  senderId: string;
  callId: string | null;
}

export interface NewMail {
  id: string;
  to: string;
  subject: string;
  sealedText: string;
  sealedHtml: string;
  createdAt: string;
  from?: string;
  workspace?: WorkspaceMailOrigin;
  /** Given, the mail is stored failed with this reason and never sent (a sender no longer verified). */
  failure?: string;
}

/** A workspace e-mail's delivery, as its history shows it. */
export type WorkspaceMailStatus = 'queued' | 'sent' | 'failed';

export const workspaceMailStatusOf = (mail: MailRecord): WorkspaceMailStatus =>
  mail.sentAt !== null ? 'sent' : mail.nextAttemptAt === null ? 'failed' : 'queued';

export interface WorkspaceMailFilter {
  /** From or to this address (lower case). */
  address?: string;
  /** Created at or after. */
  createdFrom?: string;
  /** Created before. */
  createdTo?: string;
}

export interface InvitationStore {
  /** Stores the invitation and its e-mail (due at once) together, or neither. */
  insertInvitationWithMail(invitation: InvitationRecord, mail: NewMail): Promise<void>;
  /** The registration invitation status of each user that has one (accepted when any of theirs is); member invitations do not count. */
  invitationStatuses(userIds: string[]): Promise<Map<string, InvitationStatus>>;
  findInvitationByTokenHash(tokenHash: string): Promise<InvitationRecord | undefined>;
  /** Marks the invitation accepted unless it already is; true for the one call that did. */
  markInvitationAccepted(id: string, at: string): Promise<boolean>;
}

export interface MailOutboxStore {
  /** Unsent mail due at `now` (next_attempt_at ≤ now), the longest waiting first. */
  dueMail(now: string, limit: number): Promise<MailRecord[]>;
  /**
   * Takes a due mail for one sending attempt: moves its next attempt to `leaseUntil` if it is
   * still due at `dueAt` and unsent; true for the one relay that got it. A relay that dies
   * mid-send leaves the mail due again when the lease ends.
   */
  leaseMail(id: string, dueAt: string, leaseUntil: string): Promise<boolean>;
  /** Records the delivery and wipes the sealed bodies. */
  markMailSent(id: string, at: string): Promise<void>;
  /** Counts a failed attempt; a null next attempt gives the mail up and wipes its bodies. */
  markMailFailed(id: string, error: string, nextAttemptAt: string | null): Promise<void>;
  /** For operators and tests: the mail as stored. */
  getMail(id: string): Promise<MailRecord | undefined>;
  /** Queues the mails (due at once) in one transaction, those whose id is queued already excepted; answers how many were new. */
  queueMail(mails: NewMail[]): Promise<number>;
  /**
   * Deletes at most `limit` mails the outbox is done with, sent (or, given up, created) before
   * `before`, the oldest first; answers how many. Mail still waiting stays, however old, and a
   * workspace's own e-mail stays: it is the workspace's history.
   */
  pruneFinishedMail(before: string, limit: number): Promise<number>;
  /** The workspace's own e-mail, newest first (then by id, descending). */
  listWorkspaceMail(workspaceId: string, filter: WorkspaceMailFilter, page: Page): Promise<{ mails: MailRecord[]; total: number }>;
  getWorkspaceMail(workspaceId: string, id: string): Promise<MailRecord | undefined>;
}

export type EmailSenderStatus = 'pending' | 'verified';

/** An address a workspace may send from once verified (unique per workspace). */
export interface EmailSenderRecord {
  id: string;
  workspaceId: string;
  /** Lower case. */
  address: string;
  /** The From header's display name; empty for none. */
  name: string;
  status: EmailSenderStatus;
  /** SHA-256 (hex) of the nonce of the one confirmation link that may verify it; null once verified. */
  confirmationHash: string | null;
  createdAt: string;
  verifiedAt: string | null;
}

export interface EmailSenderStore {
  /** Stores a new sender and its confirmation e-mail together, or neither: `address_taken` when the workspace has one with this address. */
  insertSenderWithMail(record: EmailSenderRecord, mail: NewMail): Promise<'created' | 'address_taken'>;
  /** Oldest first. */
  listSenders(workspaceId: string, page: Page): Promise<{ senders: EmailSenderRecord[]; total: number }>;
  getSender(workspaceId: string, id: string): Promise<EmailSenderRecord | undefined>;
  /** A sender by id alone: a confirmation link names the sender, not its workspace. */
  getSenderById(id: string): Promise<EmailSenderRecord | undefined>;
  deleteSender(workspaceId: string, id: string): Promise<boolean>;
  /** Verifies the sender if it is pending and waits for this confirmation: the sender verified, for the one call that did. */
  verifySender(id: string, confirmationHash: string, at: string): Promise<EmailSenderRecord | undefined>;
}

/** The whole store: every part on one connection, which close() ends. */
export type PlatformUsersStore = CustomDomainStore & InvitationStore & MailOutboxStore & EmailSenderStore & { close(): Promise<void> };
