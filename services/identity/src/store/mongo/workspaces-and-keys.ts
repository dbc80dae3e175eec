// Workspaces and their API keys in MongoDB, including the suspension that revokes a workspace's credentials.
import { isDuplicateKey } from '@voice/runtime/store/mongo';
import type { Page } from '@voice/runtime/validation';
import type { ApiKeyRecord, RevokeKeyOutcome, WorkspaceKeyStore, WorkspaceRecord } from '../store.js';
import { keyDocument, keyRecord, workspaceDocument, workspaceRecord } from './documents.js';
import { MongoStorePart } from './part.js';

export class MongoWorkspaceKeyStore extends MongoStorePart implements WorkspaceKeyStore {
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

  async registerApiKey(key: ApiKeyRecord): Promise<'created' | 'exists'> {
    try {
      await this.keys.insertOne(keyDocument(key));
      return 'created';
    } catch (error) {
      // Another replica registered the same key at the same moment (or it was registered long ago).
      if (isDuplicateKey(error)) return 'exists';
      throw error;
    }
  }

  async revokeApiKey(workspaceId: string, id: string): Promise<RevokeKeyOutcome> {
    return this.transaction(async (session): Promise<RevokeKeyOutcome> => {
      const key = await this.keys.findOne({ _id: id, workspace_id: workspaceId, status: 'active' }, { session });
      if (!key) return 'not_found';
      if (key.scopes === null) {
        // Every revocation of a root key writes the root document, so two of them conflict and
        // the one retried counts again: neither can leave the root without an unrestricted key.
        const root = await this.workspaces.findOneAndUpdate({ _id: workspaceId, root: true }, { $inc: { keys_revision: 1 } }, { session });
        if (root) {
          const others = await this.keys.countDocuments(
            { workspace_id: workspaceId, _id: { $ne: id }, status: 'active', scopes: null },
            { session, limit: 1 },
          );
          if (others === 0) return 'last_unrestricted';
        }
      }
      await this.keys.updateOne({ _id: id }, { $set: { status: 'revoked' } }, { session });
      return 'revoked';
    });
  }

  async touchApiKey(id: string, at: string): Promise<void> {
    await this.keys.updateOne({ _id: id }, { $set: { last_used_at: at } });
  }

  async setWorkspaceStatus(
    id: string,
    status: WorkspaceRecord['status'],
  ): Promise<{ workspace: WorkspaceRecord; revokedCredentialIds: string[] } | undefined> {
    return this.transaction(async (session) => {
      const updated = await this.workspaces.findOneAndUpdate({ _id: id }, { $set: { status } }, { session, returnDocument: 'after' });
      if (!updated) return undefined;
      const revoked: string[] = [];
      if (status === 'suspended') {
        const scope = { workspace_id: id };
        const keyIds = await this.activeIds(this.keys, scope, session);
        await this.keys.updateMany({ ...scope, status: 'active' }, { $set: { status: 'revoked' } }, { session });
        revoked.push(...keyIds, ...(await this.revokeOAuthCredentialsWhere(scope, session)));
      }
      return { workspace: workspaceRecord(updated), revokedCredentialIds: revoked };
    });
  }
}
