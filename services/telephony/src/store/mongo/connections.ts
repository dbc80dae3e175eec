// Carrier connections in MongoDB; one stays while a number or a campaign uses it.
import { definedFields, type Page } from '@voice/runtime/validation';
import type { ConnectionStore } from '../composed.js';
import type { ConnectionChanges, ConnectionRecord } from '../store.js';
import { connectionDocument, connectionRecord } from './documents.js';
import { findPage, MongoStorePart } from './part.js';

export class MongoConnectionStore extends MongoStorePart implements ConnectionStore {
  async insertConnection(connection: ConnectionRecord): Promise<ConnectionRecord> {
    await this.collections.connections.insertOne(connectionDocument(connection));
    return connection;
  }

  async getConnection(workspaceId: string, id: string): Promise<ConnectionRecord | undefined> {
    const doc = await this.collections.connections.findOne({ _id: id, workspace_id: workspaceId });
    return doc ? connectionRecord(doc) : undefined;
  }

  async getConnectionById(id: string): Promise<ConnectionRecord | undefined> {
    const doc = await this.collections.connections.findOne({ _id: id });
    return doc ? connectionRecord(doc) : undefined;
  }

  async listConnections(workspaceId: string, page: Page): Promise<{ connections: ConnectionRecord[]; total: number }> {
    const { docs, total } = await findPage(this.collections.connections, { workspace_id: workspaceId }, page);
    return { connections: docs.map(connectionRecord), total };
  }

  async updateConnection(workspaceId: string, id: string, changes: ConnectionChanges, now: string): Promise<ConnectionRecord | undefined> {
    const set = definedFields({
      name: changes.name,
      base_url: changes.baseUrl,
      sealed_account_sid: changes.sealedAccountSid,
      sealed_auth_token: changes.sealedAuthToken,
      updated_at: now,
    });
    const updated = await this.collections.connections.findOneAndUpdate({ _id: id, workspace_id: workspaceId }, { $set: set }, { returnDocument: 'after' });
    return updated ? connectionRecord(updated) : undefined;
  }

  async deleteConnection(workspaceId: string, id: string): Promise<'deleted' | 'not_found' | 'in_use'> {
    return this.transaction(async (session) => {
      const { connections, numbers, campaigns } = this.collections;
      if ((await connections.countDocuments({ _id: id, workspace_id: workspaceId }, { limit: 1, session })) === 0) return 'not_found';
      const used =
        (await numbers.countDocuments({ carrier_connection_id: id }, { limit: 1, session })) > 0 ||
        (await campaigns.countDocuments({ carrier_connection_id: id }, { limit: 1, session })) > 0;
      if (used) return 'in_use';
      await connections.deleteOne({ _id: id }, { session });
      return 'deleted';
    });
  }
}
