// ToolStore on MongoDB: the service's own database, a unique (workspace, name) index,
// revision-checked findOneAndUpdate, and a transaction where a tool and its idempotency
// claim must agree (MongoDB transactions need a replica set, as production runs).
import type { ClientSession, Collection, Filter } from 'mongodb';
import { connectMongo, deleteBatch, isDuplicateKey, type MongoHandle } from '@voice/runtime/store/mongo';
import { mongoValues } from '@voice/runtime/store';
import type { Page } from '@voice/runtime/validation';
import {
  claimOutcome,
  type CreateOutcome,
  type IdempotencyClaim,
  type ToolChanges,
  type ToolFilter,
  type ToolRecord,
  type ToolStore,
  type UpdateOutcome,
} from './store.js';
import { storedTool, toolFromStored, type StoredTool } from './mapping/tool.js';

type ToolDocument = StoredTool<boolean> & { _id: string };

interface ClaimDocument {
  _id: string;
  fingerprint: string;
  tool: string;
  created_at: string;
}

const documentOf = (tool: ToolRecord): ToolDocument => ({ _id: tool.id, ...storedTool(tool, mongoValues) });

const recordOf = (doc: ToolDocument): ToolRecord => toolFromStored(doc._id, doc, mongoValues);

const claimId = (workspaceId: string, key: string): string => `${workspaceId}:${key}`;

/** Aborts a transaction with an outcome that is not an error to the caller. */
class Settled extends Error {
  constructor(readonly outcome: CreateOutcome) {
    super(outcome.kind);
  }
}

export class MongoToolStore implements ToolStore {
  private constructor(
    private readonly handle: MongoHandle,
    private readonly tools: Collection<ToolDocument>,
    private readonly claims: Collection<ClaimDocument>,
  ) {}

  static async connect(uri: string, databaseName: string): Promise<MongoToolStore> {
    const handle = await connectMongo(uri, databaseName);
    const tools = handle.db.collection<ToolDocument>('tools');
    const claims = handle.db.collection<ClaimDocument>('idempotency_claims');
    await tools.createIndex({ workspace_id: 1, name: 1 }, { unique: true, name: 'unique_name_per_workspace' });
    await tools.createIndex({ workspace_id: 1, created_at: -1, _id: -1 }, { name: 'newest_first' });
    await claims.createIndex({ created_at: 1 }, { name: 'claims_by_time' });
    return new MongoToolStore(handle, tools, claims);
  }

  async create(tool: ToolRecord, claim?: IdempotencyClaim): Promise<CreateOutcome> {
    if (!claim) return (await this.insert(tool)) ? { kind: 'created', tool } : { kind: 'name_taken' };
    const session = this.handle.client.startSession();
    try {
      await session.withTransaction(async () => {
        const id = claimId(tool.workspaceId, claim.key);
        const replay = await this.replayOf(tool.workspaceId, claim, session);
        if (replay) throw new Settled(replay);
        if (!(await this.insert(tool, session))) throw new Settled({ kind: 'name_taken' });
        await this.claims.replaceOne(
          { _id: id },
          { fingerprint: claim.fingerprint, tool: JSON.stringify(tool), created_at: claim.now },
          { upsert: true, session },
        );
      });
      return { kind: 'created', tool };
    } catch (error) {
      if (!(error instanceof Settled)) throw error;
      // A concurrent request with the same key may have committed the same name first.
      if (error.outcome.kind === 'name_taken') return (await this.replayOf(tool.workspaceId, claim)) ?? error.outcome;
      return error.outcome;
    } finally {
      await session.endSession();
    }
  }

  /** Inserts the tool; false when its name is taken in the workspace. */
  private async insert(tool: ToolRecord, session?: ClientSession): Promise<boolean> {
    try {
      await this.tools.insertOne(documentOf(tool), { session });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  private async replayOf(workspaceId: string, claim: IdempotencyClaim, session?: ClientSession): Promise<CreateOutcome | undefined> {
    const existing = await this.claims.findOne({ _id: claimId(workspaceId, claim.key) }, { session });
    return claimOutcome(existing && { fingerprint: existing.fingerprint, tool: existing.tool, createdAt: existing.created_at }, claim);
  }

  async get(workspaceId: string, id: string): Promise<ToolRecord | undefined> {
    const doc = await this.tools.findOne({ _id: id, workspace_id: workspaceId });
    return doc ? recordOf(doc) : undefined;
  }

  async list(workspaceId: string, filter: ToolFilter, page: Page): Promise<{ tools: ToolRecord[]; total: number }> {
    const query: Filter<ToolDocument> = { workspace_id: workspaceId };
    if (filter.type !== undefined) query.type = filter.type;
    if (filter.isActive !== undefined) query.is_active = filter.isActive;
    if (filter.assistantId !== undefined) {
      // The config is JSON text written by JSON.stringify: a top-level "assistant_id":"<uuid>" pair
      // appears unescaped only as that key (inside a string value its quotes would be escaped).
      query.type = 'builtin';
      query.config = { $regex: `"assistant_id":${JSON.stringify(filter.assistantId).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` };
    }
    const [total, docs] = await Promise.all([
      this.tools.countDocuments(query),
      this.tools.find(query).sort({ created_at: -1, _id: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { tools: docs.map(recordOf), total };
  }

  async update(workspaceId: string, id: string, expectedRevision: number, changes: ToolChanges, now: string): Promise<UpdateOutcome> {
    const set: Partial<ToolDocument> = { updated_at: now };
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.description !== undefined) set.description = changes.description;
    if (changes.config !== undefined) set.config = JSON.stringify(changes.config);
    if (changes.isActive !== undefined) set.is_active = changes.isActive;
    try {
      const updated = await this.tools.findOneAndUpdate(
        { _id: id, workspace_id: workspaceId, revision: expectedRevision },
        { $set: set, $inc: { revision: 1 } },
        { returnDocument: 'after' },
      );
      if (updated) return { kind: 'updated', tool: recordOf(updated) };
    } catch (error) {
      if (isDuplicateKey(error)) return { kind: 'name_taken' };
      throw error;
    }
    const exists = await this.tools.countDocuments({ _id: id, workspace_id: workspaceId }, { limit: 1 });
    return exists ? { kind: 'revision_conflict' } : { kind: 'not_found' };
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    return (await this.tools.deleteOne({ _id: id, workspace_id: workspaceId })).deletedCount === 1;
  }

  async pruneIdempotencyClaims(createdBefore: string, limit: number): Promise<number> {
    return deleteBatch(this.claims, { created_at: { $lt: createdBefore } }, { created_at: 1 }, limit);
  }

  /** Tests only: removes the whole database this store owns. */
  async dropDatabase(): Promise<void> {
    await this.handle.db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
