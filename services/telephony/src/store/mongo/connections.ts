// Carrier connections in MongoDB; one stays while a number or a campaign uses it.
import { inTransaction } from '@voice/runtime/store/mongo';
import { definedFields, type Page } from '@voice/runtime/validation';
import type { ConnectionChanges, ConnectionRecord, ConnectionStore } from '../store.js';
import { connectionDocument, connectionRecord } from './documents.js';
import { findPage, type MongoContext } from './part.js';

export function mongoConnectionStore({ handle, collections }: MongoContext): ConnectionStore {
  return {
    async insertConnection(connection: ConnectionRecord): Promise<ConnectionRecord> {
      await collections.connections.insertOne(connectionDocument(connection));
      return connection;
    },

    async getConnection(workspaceId: string, id: string): Promise<ConnectionRecord | undefined> {
      const doc = await collections.connections.findOne({ _id: id, workspace_id: workspaceId });
      return doc ? connectionRecord(doc) : undefined;
    },

    async getConnectionById(id: string): Promise<ConnectionRecord | undefined> {
      const doc = await collections.connections.findOne({ _id: id });
      return doc ? connectionRecord(doc) : undefined;
    },

    async listConnections(workspaceId: string, page: Page): Promise<{ connections: ConnectionRecord[]; total: number }> {
      const { docs, total } = await findPage(collections.connections, { workspace_id: workspaceId }, page);
      return { connections: docs.map(connectionRecord), total };
    },

    async updateConnection(workspaceId: string, id: string, changes: ConnectionChanges, now: string): Promise<ConnectionRecord | undefined> {
      const set = definedFields({
        name: changes.name,
        base_url: changes.baseUrl,
        sealed_account_sid: changes.sealedAccountSid,
        sealed_auth_token: changes.sealedAuthToken,
        updated_at: now,
      });
      const updated = await collections.connections.findOneAndUpdate({ _id: id, workspace_id: workspaceId }, { $set: set }, { returnDocument: 'after' });
      return updated ? connectionRecord(updated) : undefined;
    },

    async deleteConnection(workspaceId: string, id: string): Promise<'deleted' | 'not_found' | 'in_use'> {
      return inTransaction(handle, async (session) => {
        const { connections, numbers, campaigns } = collections;
        if ((await connections.countDocuments({ _id: id, workspace_id: workspaceId }, { limit: 1, session })) === 0) return 'not_found';
        const used =
          (await numbers.countDocuments({ carrier_connection_id: id }, { limit: 1, session })) > 0 ||
          (await campaigns.countDocuments({ carrier_connection_id: id }, { limit: 1, session })) > 0;
        if (used) return 'in_use';
        await connections.deleteOne({ _id: id }, { session });
        return 'deleted';
      });
    },
  };
}
