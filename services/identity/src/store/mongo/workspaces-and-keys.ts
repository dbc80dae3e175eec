// Workspaces and their API keys in MongoDB, including the suspension that revokes a workspace's credentials.
import { inTransaction, isDuplicateKey } from '@voice/runtime/store/mongo';
import type { Page } from '@voice/runtime/validation';
import type { ApiKeyRecord, RevokeKeyOutcome, WorkspaceKeyStore, WorkspaceRecord } from '../store.js';
import { keyDocument, keyRecord, workspaceDocument, workspaceRecord } from './documents.js';
import { activeIds, revokeOAuthCredentialsWhere, type MongoContext } from './context.js';

export function mongoWorkspaceKeyStore({ handle, collections }: MongoContext): WorkspaceKeyStore {
  async function bootstrapRoot(workspace: WorkspaceRecord, key: ApiKeyRecord): Promise<'created' | 'exists'> {
    const session = handle.client.startSession();
    try {
      let outcome: 'created' | 'exists' = 'created';
      await session.withTransaction(async () => {
        outcome = 'created';
        if (await collections.workspaces.findOne({ root: true }, { session })) {
          outcome = 'exists';
          return;
        }
        await collections.workspaces.insertOne(workspaceDocument(workspace), { session });
        await collections.keys.insertOne(keyDocument(key), { session });
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

  async function rootWorkspace(): Promise<WorkspaceRecord | undefined> {
    const doc = await collections.workspaces.findOne({ root: true });
    return doc ? workspaceRecord(doc) : undefined;
  }

  async function createWorkspace(workspace: WorkspaceRecord): Promise<void> {
    await collections.workspaces.insertOne(workspaceDocument(workspace));
  }

  async function getWorkspace(id: string): Promise<WorkspaceRecord | undefined> {
    const doc = await collections.workspaces.findOne({ _id: id });
    return doc ? workspaceRecord(doc) : undefined;
  }

  async function createApiKey(key: ApiKeyRecord): Promise<void> {
    await collections.keys.insertOne(keyDocument(key));
  }

  async function findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const doc = await collections.keys.findOne({ key_hash: keyHash });
    return doc ? keyRecord(doc) : undefined;
  }

  async function listApiKeys(workspaceId: string, page: Page): Promise<{ keys: ApiKeyRecord[]; total: number }> {
    const query = { workspace_id: workspaceId, status: 'active' };
    const [total, docs] = await Promise.all([
      collections.keys.countDocuments(query),
      collections.keys.find(query).sort({ created_at: -1, _id: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { keys: docs.map(keyRecord), total };
  }

  async function registerApiKey(key: ApiKeyRecord): Promise<'created' | 'exists'> {
    try {
      await collections.keys.insertOne(keyDocument(key));
      return 'created';
    } catch (error) {
      // Another replica registered the same key at the same moment (or it was registered long ago).
      if (isDuplicateKey(error)) return 'exists';
      throw error;
    }
  }

  async function revokeApiKey(workspaceId: string, id: string): Promise<RevokeKeyOutcome> {
    return inTransaction(handle, async (session): Promise<RevokeKeyOutcome> => {
      const key = await collections.keys.findOne({ _id: id, workspace_id: workspaceId, status: 'active' }, { session });
      if (!key) return 'not_found';
      if (key.scopes === null) {
        // Every revocation of a root key writes the root document, so two of them conflict and
        // the one retried counts again: neither can leave the root without an unrestricted key.
        const root = await collections.workspaces.findOneAndUpdate({ _id: workspaceId, root: true }, { $inc: { keys_revision: 1 } }, { session });
        if (root) {
          const others = await collections.keys.countDocuments(
            { workspace_id: workspaceId, _id: { $ne: id }, status: 'active', scopes: null },
            { session, limit: 1 },
          );
          if (others === 0) return 'last_unrestricted';
        }
      }
      await collections.keys.updateOne({ _id: id }, { $set: { status: 'revoked' } }, { session });
      return 'revoked';
    });
  }

  async function touchApiKey(id: string, at: string): Promise<void> {
    await collections.keys.updateOne({ _id: id }, { $set: { last_used_at: at } });
  }

  async function setWorkspaceStatus(
    id: string,
    status: WorkspaceRecord['status'],
  ): Promise<{ workspace: WorkspaceRecord; revokedCredentialIds: string[] } | undefined> {
    return inTransaction(handle, async (session) => {
      const updated = await collections.workspaces.findOneAndUpdate({ _id: id }, { $set: { status } }, { session, returnDocument: 'after' });
      if (!updated) return undefined;
      const revoked: string[] = [];
      if (status === 'suspended') {
        const scope = { workspace_id: id };
        const keyIds = await activeIds(collections.keys, scope, session);
        await collections.keys.updateMany({ ...scope, status: 'active' }, { $set: { status: 'revoked' } }, { session });
        revoked.push(...keyIds, ...(await revokeOAuthCredentialsWhere(collections, scope, session)));
      }
      return { workspace: workspaceRecord(updated), revokedCredentialIds: revoked };
    });
  }

  return { bootstrapRoot, rootWorkspace, createWorkspace, getWorkspace, createApiKey, findApiKeyByHash, listApiKeys, registerApiKey, revokeApiKey, touchApiKey, setWorkspaceStatus };
}
