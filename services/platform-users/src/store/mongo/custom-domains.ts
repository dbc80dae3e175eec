// Custom domain claims in MongoDB.
import { isDuplicateKey } from '@voice/runtime/store/mongo';
import { missingAsIs, storedCustomDomain } from '../mapping/custom-domain.js';
import { domainOf } from './documents.js';
import { hasLapsed } from '../store.js';
import type { CustomDomainRecord, CustomDomainStore, InsertDomainOutcome, VerificationOutcome, VerificationResult } from '../store.js';
import type { MongoContext } from './context.js';

export function mongoCustomDomainStore({ collections }: MongoContext): CustomDomainStore {
  async function insert(record: CustomDomainRecord, now: string): Promise<InsertDomainOutcome> {
    const { domains } = collections;
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

  async function get(workspaceId: string, now: string): Promise<CustomDomainRecord | undefined> {
    const doc = await collections.domains.findOne({ _id: workspaceId });
    const record = doc ? domainOf(doc) : undefined;
    return record && !hasLapsed(record, now) ? record : undefined;
  }

  /**
   * Without a transaction: the unique index on active domains decides who gets a domain, and the
   * other claims are dropped right after. Were that step lost, each leftover claim is told the
   * domain is taken when it next verifies, and lapses meanwhile.
   */
  async function recordVerification(workspaceId: string, domain: string, result: VerificationResult): Promise<VerificationOutcome> {
    const { domains } = collections;
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

  async function remove(workspaceId: string): Promise<CustomDomainRecord | undefined> {
    const doc = await collections.domains.findOneAndDelete({ _id: workspaceId });
    return doc ? domainOf(doc) : undefined;
  }

  async function findActive(domain: string): Promise<CustomDomainRecord | undefined> {
    const doc = await collections.domains.findOne({ domain, status: 'active' });
    return doc ? domainOf(doc) : undefined;
  }

  return { insert, get, recordVerification, remove, findActive };
}
