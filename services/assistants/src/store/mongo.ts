// The assistants store on MongoDB: the service's own database; an update and the version it
// writes, and a create with its first version and idempotency claim, each in one transaction
// (MongoDB transactions need a replica set, as production runs).
import type { ClientSession, Collection } from 'mongodb';
import { connectMongo, deleteBatch, inTransaction, isDuplicateKey, type MongoHandle } from '@voice/runtime/store/mongo';
import type { Page } from '@voice/runtime/validation';
import type { JsonObject } from '@bufbuild/protobuf';
import { knowledgeCollections, MongoKnowledgeParts, type KnowledgeCollections } from './mongo/knowledge.js';
import { assistantOf, assistantRowOf, foldName, type AssistantRow } from './mapping/assistant.js';
import { settingsOf, type SettingsRow } from './mapping/settings.js';
import { versionOf, versionRowOf, type VersionRow } from './mapping/version.js';
import {
  claimOutcome,
  type AssistantChange,
  type AssistantRecord,
  type AssistantsStore,
  type CreateOutcome,
  type IdempotencyClaim,
  type SettingsKind,
  type SettingsRecord,
  type UpdateOutcome,
  type VersionRecord,
} from './store.js';

/** MongoDB keeps the knowledge bases an assistant names beside its config, for the in-use check. */
type AssistantDocument = Omit<AssistantRow, 'id'> & { _id: string; knowledge_base_ids: string[] };
type VersionDocument = VersionRow & { _id: string };
type SettingsDocument = Omit<SettingsRow, 'workspace_id' | 'kind'> & { _id: string };

interface ClaimDocument {
  _id: string;
  fingerprint: string;
  assistant: string;
  created_at: string;
}

const knowledgeBaseIdsOf = (config: JsonObject): string[] => (Array.isArray(config.knowledge_base_ids) ? (config.knowledge_base_ids as string[]) : []);
const documentOf = (row: AssistantRow, config: JsonObject): AssistantDocument => {
  const { id, ...rest } = row;
  return { _id: id, ...rest, knowledge_base_ids: knowledgeBaseIdsOf(config) };
};
const rowOf = ({ _id, knowledge_base_ids: _, ...rest }: AssistantDocument): AssistantRow => ({ id: _id, ...rest });
const versionDocumentOf = (version: VersionRecord): VersionDocument => ({ _id: `${version.assistantId}:${version.number}`, ...versionRowOf(version) });
const claimId = (workspaceId: string, key: string): string => `${workspaceId}:${key}`;
const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Ends a transaction with an outcome that is not an error to the caller. */
class Settled<T> extends Error {
  constructor(readonly outcome: T) {
    super('settled');
  }
}

export class MongoAssistantsStore extends MongoKnowledgeParts implements AssistantsStore {
  private constructor(
    handle: MongoHandle,
    knowledge: KnowledgeCollections,
    private readonly assistants: Collection<AssistantDocument>,
    private readonly versions: Collection<VersionDocument>,
    private readonly claims: Collection<ClaimDocument>,
    private readonly settingsDocs: Collection<SettingsDocument>,
  ) {
    super(handle, knowledge);
  }

  static async connect(uri: string, databaseName: string): Promise<MongoAssistantsStore> {
    const handle = await connectMongo(uri, databaseName);
    const assistants = handle.db.collection<AssistantDocument>('assistants');
    const versions = handle.db.collection<VersionDocument>('assistant_versions');
    const claims = handle.db.collection<ClaimDocument>('idempotency_claims');
    await assistants.createIndex({ workspace_id: 1, created_at: -1, _id: -1 }, { name: 'newest_first' });
    await versions.createIndex({ assistant_id: 1, number: -1 }, { name: 'versions_newest_first' });
    await claims.createIndex({ created_at: 1 }, { name: 'claims_by_time' });
    await assistants.createIndex({ workspace_id: 1, knowledge_base_ids: 1 }, { name: 'by_knowledge_base' });
    const knowledge = await knowledgeCollections(handle.db);
    return new MongoAssistantsStore(handle, knowledge, assistants, versions, claims, handle.db.collection<SettingsDocument>('settings'));
  }

  /** Runs `work` in a transaction (runtime's inTransaction); a Settled outcome ends it without committing and is answered. */
  private async transaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(this.handle, work);
    } catch (error) {
      if (error instanceof Settled) return error.outcome as T;
      throw error;
    }
  }

  async create(assistant: AssistantRecord, version: VersionRecord, claim?: IdempotencyClaim): Promise<CreateOutcome> {
    return this.transaction(async (session): Promise<CreateOutcome> => {
      if (claim) {
        const existing = await this.claims.findOne({ _id: claimId(assistant.workspaceId, claim.key) }, { session });
        const replay = claimOutcome(existing && { fingerprint: existing.fingerprint, assistant: existing.assistant, createdAt: existing.created_at }, claim);
        if (replay) throw new Settled(replay);
      }
      await this.assistants.insertOne(documentOf(assistantRowOf(assistant), assistant.config), { session });
      await this.versions.insertOne(versionDocumentOf(version), { session });
      if (claim) {
        await this.claims.replaceOne(
          { _id: claimId(assistant.workspaceId, claim.key) },
          { fingerprint: claim.fingerprint, assistant: JSON.stringify(assistant), created_at: claim.now },
          { upsert: true, session },
        );
      }
      return { kind: 'created', assistant };
    });
  }

  async get(workspaceId: string, id: string): Promise<AssistantRecord | undefined> {
    const doc = await this.assistants.findOne({ _id: id, workspace_id: workspaceId });
    return doc ? assistantOf(rowOf(doc)) : undefined;
  }

  async list(workspaceId: string, query: string, page: Page): Promise<{ assistants: AssistantRecord[]; total: number }> {
    const filter = query ? { workspace_id: workspaceId, name_folded: { $regex: literal(foldName(query)) } } : { workspace_id: workspaceId };
    const [total, docs] = await Promise.all([
      this.assistants.countDocuments(filter),
      this.assistants.find(filter).sort({ created_at: -1, _id: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { assistants: docs.map((doc) => assistantOf(rowOf(doc))), total };
  }

  async update(workspaceId: string, id: string, expectedRevision: number, change: AssistantChange, version: VersionRecord): Promise<UpdateOutcome> {
    return this.transaction(async (session): Promise<UpdateOutcome> => {
      const updated = await this.assistants.findOneAndUpdate(
        { _id: id, workspace_id: workspaceId, revision: expectedRevision },
        {
          $set: {
            name: change.name,
            name_folded: foldName(change.name),
            config: JSON.stringify(change.config),
            knowledge_base_ids: knowledgeBaseIdsOf(change.config),
            updated_at: change.updatedAt,
          },
          $inc: { revision: 1 },
        },
        { returnDocument: 'after', session },
      );
      if (!updated) {
        const exists = await this.assistants.countDocuments({ _id: id, workspace_id: workspaceId }, { limit: 1, session });
        throw new Settled<UpdateOutcome>(exists ? { kind: 'revision_conflict' } : { kind: 'not_found' });
      }
      await this.versions.insertOne(versionDocumentOf({ ...version, number: updated.revision }), { session });
      return { kind: 'updated', assistant: assistantOf(rowOf(updated)) };
    });
  }

  async countUsingKnowledgeBase(workspaceId: string, knowledgeBaseId: string): Promise<number> {
    return this.assistants.countDocuments({ workspace_id: workspaceId, knowledge_base_ids: knowledgeBaseId });
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    return this.transaction(async (session) => {
      const deleted = (await this.assistants.deleteOne({ _id: id, workspace_id: workspaceId }, { session })).deletedCount === 1;
      if (deleted) await this.versions.deleteMany({ assistant_id: id, workspace_id: workspaceId }, { session });
      return deleted;
    });
  }

  async listVersions(workspaceId: string, assistantId: string, page: Page): Promise<{ versions: VersionRecord[]; total: number }> {
    const filter = { assistant_id: assistantId, workspace_id: workspaceId };
    const [total, docs] = await Promise.all([
      this.versions.countDocuments(filter),
      this.versions.find(filter).sort({ number: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { versions: docs.map(({ _id: _, ...row }) => versionOf(row)), total };
  }

  async getVersion(workspaceId: string, assistantId: string, number: number): Promise<VersionRecord | undefined> {
    const doc = await this.versions.findOne({ assistant_id: assistantId, workspace_id: workspaceId, number });
    if (!doc) return undefined;
    const { _id: _, ...row } = doc;
    return versionOf(row);
  }

  async pruneIdempotencyClaims(createdBefore: string, limit: number): Promise<number> {
    return deleteBatch(this.claims, { created_at: { $lt: createdBefore } }, { created_at: 1 }, limit);
  }

  async settings(workspaceId: string, kind: SettingsKind): Promise<SettingsRecord | undefined> {
    const doc = await this.settingsDocs.findOne({ _id: `${workspaceId}:${kind}` });
    return doc ? settingsOf(doc) : undefined;
  }

  async saveSettings(workspaceId: string, kind: SettingsKind, value: JsonObject, expectedRevision: number, now: string): Promise<boolean> {
    const _id = `${workspaceId}:${kind}`;
    if (expectedRevision === 0) {
      try {
        await this.settingsDocs.insertOne({ _id, value: JSON.stringify(value), revision: 1, updated_at: now });
        return true;
      } catch (error) {
        if (isDuplicateKey(error)) return false;
        throw error;
      }
    }
    const updated = await this.settingsDocs.updateOne(
      { _id, revision: expectedRevision },
      { $set: { value: JSON.stringify(value), updated_at: now }, $inc: { revision: 1 } },
    );
    return updated.modifiedCount === 1;
  }

  /** Tests only: removes the whole database this store owns. */
  async dropDatabase(): Promise<void> {
    await this.handle.db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
