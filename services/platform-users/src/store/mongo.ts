// CustomDomainStore on MongoDB: the workspace id is the document id (one domain per workspace),
// and a unique index keeps a domain with one workspace across the platform.
import type { Collection } from 'mongodb';
import { connectMongo, isDuplicateKey, type MongoHandle } from '@voice/runtime';
import type { CustomDomainRecord, CustomDomainStore, InsertDomainOutcome, VerificationResult } from './store.js';

interface DomainDocument {
  _id: string;
  domain: string;
  token: string;
  status: string;
  missing: CustomDomainRecord['missing'];
  created_at: string;
  checked_at: string | null;
  verified_at: string | null;
}

const recordOf = (doc: DomainDocument): CustomDomainRecord => ({
  workspaceId: doc._id,
  domain: doc.domain,
  token: doc.token,
  status: doc.status as CustomDomainRecord['status'],
  missing: doc.missing,
  createdAt: doc.created_at,
  checkedAt: doc.checked_at,
  verifiedAt: doc.verified_at,
});

export class MongoCustomDomainStore implements CustomDomainStore {
  private constructor(
    private readonly handle: MongoHandle,
    private readonly domains: Collection<DomainDocument>,
  ) {}

  static async connect(uri: string, databaseName: string): Promise<MongoCustomDomainStore> {
    const handle = await connectMongo(uri, databaseName);
    const domains = handle.db.collection<DomainDocument>('custom_domains');
    await domains.createIndex({ domain: 1 }, { unique: true, name: 'unique_domain' });
    return new MongoCustomDomainStore(handle, domains);
  }

  async insert(record: CustomDomainRecord): Promise<InsertDomainOutcome> {
    try {
      await this.domains.insertOne({
        _id: record.workspaceId,
        domain: record.domain,
        token: record.token,
        status: record.status,
        missing: record.missing,
        created_at: record.createdAt,
        checked_at: record.checkedAt,
        verified_at: record.verifiedAt,
      });
      return { kind: 'created', record };
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      // Which unique key refused: the workspace's own document, or the domain of another.
      return (await this.domains.findOne({ _id: record.workspaceId })) ? { kind: 'workspace_has_domain' } : { kind: 'domain_taken' };
    }
  }

  async get(workspaceId: string): Promise<CustomDomainRecord | undefined> {
    const doc = await this.domains.findOne({ _id: workspaceId });
    return doc ? recordOf(doc) : undefined;
  }

  async recordVerification(workspaceId: string, domain: string, result: VerificationResult): Promise<CustomDomainRecord | undefined> {
    const doc = await this.domains.findOneAndUpdate(
      { _id: workspaceId, domain },
      { $set: { status: result.status, missing: result.missing, checked_at: result.checkedAt, verified_at: result.verifiedAt } },
      { returnDocument: 'after' },
    );
    return doc ? recordOf(doc) : undefined;
  }

  async remove(workspaceId: string): Promise<CustomDomainRecord | undefined> {
    const doc = await this.domains.findOneAndDelete({ _id: workspaceId });
    return doc ? recordOf(doc) : undefined;
  }

  async findActive(domain: string): Promise<CustomDomainRecord | undefined> {
    const doc = await this.domains.findOne({ domain, status: 'active' });
    return doc ? recordOf(doc) : undefined;
  }

  /** For tests: removes the service's whole database. */
  async dropDatabase(): Promise<void> {
    await this.handle.db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
