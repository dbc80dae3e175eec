// PlatformUsersStore on MongoDB: unique indexes keep an active domain with one workspace and a
// token hash with one invitation; an invitation and its e-mail are written in one transaction.
import { connectMongo, deleteBatch, inTransaction, isDuplicateKey, type MongoHandle } from '@voice/runtime/store/mongo';
import { mongoValues } from '@voice/runtime/store';
import { missingAsIs, storedCustomDomain } from './mapping/custom-domain.js';
import { storedInvitation } from './mapping/invitation.js';
import { storedNewMail } from './mapping/mail.js';
import { domainOf, ensureIndexes, invitationOf, mailOf, type Collections } from './mongo/documents.js';
import type {
  CustomDomainRecord,
  InsertDomainOutcome,
  InvitationRecord,
  InvitationStatus,
  MailRecord,
  NewMail,
  PlatformUsersStore,
  VerificationOutcome,
  VerificationResult,
} from './store.js';
import { hasLapsed } from './store.js';

export class MongoPlatformUsersStore implements PlatformUsersStore {
  private constructor(
    private readonly handle: MongoHandle,
    private readonly collections: Collections,
  ) {}

  static async connect(uri: string, databaseName: string): Promise<MongoPlatformUsersStore> {
    const handle = await connectMongo(uri, databaseName);
    try {
      const collections: Collections = {
        domains: handle.db.collection('custom_domains'),
        invitations: handle.db.collection('invitations'),
        mail: handle.db.collection('mail_outbox'),
      };
      await ensureIndexes(collections);
      return new MongoPlatformUsersStore(handle, collections);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async insert(record: CustomDomainRecord, now: string): Promise<InsertDomainOutcome> {
    const { domains } = this.collections;
    const own = await domains.findOne({ _id: record.workspaceId });
    if (own && !hasLapsed(domainOf(own), now)) return { kind: 'workspace_has_domain' };
    if (await domains.findOne({ domain: record.domain, status: 'active' })) return { kind: 'domain_taken' };
    // The lapsed claim goes, unless it changed meanwhile (then the insert below finds it).
    if (own) await domains.deleteOne({ _id: record.workspaceId, domain: own.domain, status: own.status, expires_at: own.expires_at ?? null });
    try {
      await domains.insertOne({ _id: record.workspaceId, ...storedCustomDomain(record, missingAsIs) });
      return { kind: 'created', record };
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return { kind: 'workspace_has_domain' };
    }
  }

  async get(workspaceId: string, now: string): Promise<CustomDomainRecord | undefined> {
    const doc = await this.collections.domains.findOne({ _id: workspaceId });
    const record = doc ? domainOf(doc) : undefined;
    return record && !hasLapsed(record, now) ? record : undefined;
  }

  /**
   * Without a transaction: the unique index on active domains decides who gets a domain, and the
   * other claims are dropped right after. Were that step lost, each leftover claim is told the
   * domain is taken when it next verifies, and lapses meanwhile.
   */
  async recordVerification(workspaceId: string, domain: string, result: VerificationResult): Promise<VerificationOutcome> {
    const { domains } = this.collections;
    let doc;
    try {
      doc = await domains.findOneAndUpdate(
        { _id: workspaceId, domain },
        { $set: { status: result.status, missing: result.missing, checked_at: result.checkedAt, verified_at: result.verifiedAt, expires_at: result.expiresAt } },
        { returnDocument: 'after' },
      );
    } catch (error) {
      // Another workspace has the domain active (the unique index refused a second).
      if (!isDuplicateKey(error)) throw error;
      await domains.deleteOne({ _id: workspaceId, domain, status: 'pending_verification' });
      return { kind: 'taken' };
    }
    if (!doc) {
      // Dropped by the verification of the workspace that got the domain, while this one was checking DNS.
      const activeElsewhere = result.status === 'active' && (await domains.findOne({ domain, status: 'active' }));
      return activeElsewhere ? { kind: 'taken' } : { kind: 'gone' };
    }
    if (result.status === 'active') await domains.deleteMany({ domain, _id: { $ne: workspaceId } });
    return { kind: 'recorded', record: domainOf(doc) };
  }

  async remove(workspaceId: string): Promise<CustomDomainRecord | undefined> {
    const doc = await this.collections.domains.findOneAndDelete({ _id: workspaceId });
    return doc ? domainOf(doc) : undefined;
  }

  async findActive(domain: string): Promise<CustomDomainRecord | undefined> {
    const doc = await this.collections.domains.findOne({ domain, status: 'active' });
    return doc ? domainOf(doc) : undefined;
  }

  async insertInvitationWithMail(invitation: InvitationRecord, mail: NewMail): Promise<void> {
    await inTransaction(this.handle, async (session) => {
      await this.collections.invitations.insertOne({ _id: invitation.id, ...storedInvitation(invitation, mongoValues) }, { session });
      await this.collections.mail.insertOne({ _id: mail.id, to: mail.to, ...storedNewMail(mail) }, { session });
    });
  }

  async invitationStatuses(userIds: string[]): Promise<Map<string, InvitationStatus>> {
    if (userIds.length === 0) return new Map();
    const docs = await this.collections.invitations
      .find({ user_id: { $in: userIds }, workspace_id: { $in: [null] } }, { projection: { user_id: 1, accepted_at: 1 } })
      .toArray();
    const statuses = new Map<string, InvitationStatus>();
    for (const doc of docs) {
      if (statuses.get(doc.user_id) !== 'accepted') statuses.set(doc.user_id, doc.accepted_at ? 'accepted' : 'pending');
    }
    return statuses;
  }

  async findInvitationByTokenHash(tokenHash: string): Promise<InvitationRecord | undefined> {
    const doc = await this.collections.invitations.findOne({ token_hash: tokenHash });
    return doc ? invitationOf(doc) : undefined;
  }

  async markInvitationAccepted(id: string, at: string): Promise<boolean> {
    const result = await this.collections.invitations.updateOne({ _id: id, accepted_at: null }, { $set: { accepted_at: at } });
    return result.modifiedCount === 1;
  }

  async dueMail(now: string, limit: number): Promise<MailRecord[]> {
    const docs = await this.collections.mail
      .find({ sent_at: null, next_attempt_at: { $lte: now } })
      .sort({ next_attempt_at: 1, created_at: 1 })
      .limit(limit)
      .toArray();
    return docs.map(mailOf);
  }

  async leaseMail(id: string, dueAt: string, leaseUntil: string): Promise<boolean> {
    const result = await this.collections.mail.updateOne({ _id: id, sent_at: null, next_attempt_at: dueAt }, { $set: { next_attempt_at: leaseUntil } });
    return result.modifiedCount === 1;
  }

  async markMailSent(id: string, at: string): Promise<void> {
    await this.collections.mail.updateOne({ _id: id }, { $set: { sent_at: at, next_attempt_at: null, sealed_text: null, sealed_html: null } });
  }

  async markMailFailed(id: string, error: string, nextAttemptAt: string | null): Promise<void> {
    const wipe = nextAttemptAt === null ? { sealed_text: null, sealed_html: null } : {};
    await this.collections.mail.updateOne(
      { _id: id, sent_at: null },
      { $inc: { attempts: 1 }, $set: { last_error: error, next_attempt_at: nextAttemptAt, ...wipe } },
    );
  }

  async pruneFinishedMail(before: string, limit: number): Promise<number> {
    return deleteBatch(
      this.collections.mail,
      { next_attempt_at: null, created_at: { $lt: before }, $or: [{ sent_at: null }, { sent_at: { $lt: before } }] },
      { created_at: 1 },
      limit,
    );
  }

  async getMail(id: string): Promise<MailRecord | undefined> {
    const doc = await this.collections.mail.findOne({ _id: id });
    return doc ? mailOf(doc) : undefined;
  }

  /** For tests: removes the service's whole database. */
  async dropDatabase(): Promise<void> {
    await this.handle.db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
