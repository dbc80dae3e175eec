// IdentityStore on MongoDB: the service's own database; unique indexes on key hashes and on
// the root marker, and a transaction for the root workspace with its key.
import type { Collection } from 'mongodb';
import { connectMongo, isDuplicateKey, type MongoHandle, type Page } from '@voice/runtime';
import type { ApiKeyRecord, IdentityStore, WorkspaceRecord } from './store.js';

interface WorkspaceDocument {
  _id: string;
  name: string;
  plan: string;
  status: string;
  parent_workspace_id: string | null;
  /** Present (true) only on the root; a unique sparse index keeps it single. */
  root?: true;
  created_at: string;
}

interface ApiKeyDocument {
  _id: string;
  workspace_id: string;
  name: string;
  principal_id: string;
  key_hash: string;
  key_hint: string;
  scopes: string[] | null;
  status: string;
  created_at: string;
  last_used_at: string | null;
}

const workspaceDocument = (w: WorkspaceRecord): WorkspaceDocument => ({
  _id: w.id,
  name: w.name,
  plan: w.plan,
  status: w.status,
  parent_workspace_id: w.parentWorkspaceId,
  ...(w.parentWorkspaceId === null ? { root: true as const } : {}),
  created_at: w.createdAt,
});

const workspaceRecord = (d: WorkspaceDocument): WorkspaceRecord => ({
  id: d._id,
  name: d.name,
  plan: d.plan,
  status: d.status as WorkspaceRecord['status'],
  parentWorkspaceId: d.parent_workspace_id,
  createdAt: d.created_at,
});

const keyDocument = (k: ApiKeyRecord): ApiKeyDocument => ({
  _id: k.id,
  workspace_id: k.workspaceId,
  name: k.name,
  principal_id: k.principalId,
  key_hash: k.keyHash,
  key_hint: k.keyHint,
  scopes: k.scopes,
  status: k.status,
  created_at: k.createdAt,
  last_used_at: k.lastUsedAt,
});

const keyRecord = (d: ApiKeyDocument): ApiKeyRecord => ({
  id: d._id,
  workspaceId: d.workspace_id,
  name: d.name,
  principalId: d.principal_id,
  keyHash: d.key_hash,
  keyHint: d.key_hint,
  scopes: d.scopes,
  status: d.status as ApiKeyRecord['status'],
  createdAt: d.created_at,
  lastUsedAt: d.last_used_at,
});

export class MongoIdentityStore implements IdentityStore {
  private constructor(
    private readonly handle: MongoHandle,
    private readonly workspaces: Collection<WorkspaceDocument>,
    private readonly keys: Collection<ApiKeyDocument>,
  ) {}

  static async connect(uri: string, databaseName: string): Promise<MongoIdentityStore> {
    const handle = await connectMongo(uri, databaseName);
    const workspaces = handle.db.collection<WorkspaceDocument>('workspaces');
    const keys = handle.db.collection<ApiKeyDocument>('api_keys');
    await workspaces.createIndex({ root: 1 }, { unique: true, sparse: true, name: 'one_root' });
    await keys.createIndex({ key_hash: 1 }, { unique: true, name: 'unique_key_hash' });
    await keys.createIndex({ principal_id: 1 }, { unique: true, name: 'unique_principal' });
    await keys.createIndex({ workspace_id: 1, status: 1, created_at: -1, _id: -1 }, { name: 'keys_by_workspace' });
    return new MongoIdentityStore(handle, workspaces, keys);
  }

  async bootstrapRoot(workspace: WorkspaceRecord, key: ApiKeyRecord): Promise<'created' | 'exists'> {
    const session = this.handle.client.startSession();
    try {
      let outcome: 'created' | 'exists' = 'created';
      await session.withTransaction(async () => {
        outcome = 'created';
        if (await this.workspaces.findOne({ root: true }, { session })) {
          outcome = 'exists';
          return;
        }
        await this.workspaces.insertOne(workspaceDocument(workspace), { session });
        await this.keys.insertOne(keyDocument(key), { session });
      });
      return outcome;
    } catch (error) {
      // Another replica bootstrapped at the same moment.
      if (isDuplicateKey(error)) return 'exists';
      throw error;
    } finally {
      await session.endSession();
    }
  }

  async rootWorkspace(): Promise<WorkspaceRecord | undefined> {
    const doc = await this.workspaces.findOne({ root: true });
    return doc ? workspaceRecord(doc) : undefined;
  }

  async createWorkspace(workspace: WorkspaceRecord): Promise<void> {
    await this.workspaces.insertOne(workspaceDocument(workspace));
  }

  async getWorkspace(id: string): Promise<WorkspaceRecord | undefined> {
    const doc = await this.workspaces.findOne({ _id: id });
    return doc ? workspaceRecord(doc) : undefined;
  }

  async createApiKey(key: ApiKeyRecord): Promise<void> {
    await this.keys.insertOne(keyDocument(key));
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const doc = await this.keys.findOne({ key_hash: keyHash });
    return doc ? keyRecord(doc) : undefined;
  }

  async listApiKeys(workspaceId: string, page: Page): Promise<{ keys: ApiKeyRecord[]; total: number }> {
    const query = { workspace_id: workspaceId, status: 'active' };
    const [total, docs] = await Promise.all([
      this.keys.countDocuments(query),
      this.keys.find(query).sort({ created_at: -1, _id: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { keys: docs.map(keyRecord), total };
  }

  async revokeApiKey(workspaceId: string, id: string): Promise<boolean> {
    const result = await this.keys.updateOne({ _id: id, workspace_id: workspaceId, status: 'active' }, { $set: { status: 'revoked' } });
    return result.modifiedCount === 1;
  }

  async touchApiKey(id: string, at: string): Promise<void> {
    await this.keys.updateOne({ _id: id }, { $set: { last_used_at: at } });
  }

  /** Tests only: removes the whole database this store owns. */
  async dropDatabase(): Promise<void> {
    await this.handle.db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
