// IdentityStore on MongoDB: the service's own database; unique indexes on the root marker, key,
// token and code hashes, e-mails and (workspace, user) memberships; a transaction wherever two
// writes must agree (MongoDB transactions need a replica set, as production runs).
import { connectMongo, type MongoHandle } from '@voice/runtime/store/mongo';
import { ComposedIdentityStore } from './composed.js';
import { identityCollections, type Collections } from './mongo/documents.js';
import { MongoCustomerStore } from './mongo/customers.js';
import { createIndexes } from './mongo/indexes.js';
import { MongoOAuthStore } from './mongo/oauth.js';
import { assignUserRealms } from './mongo/realm-migration.js';
import { MongoMemberStore } from './mongo/users-and-members.js';
import { MongoWorkspaceKeyStore } from './mongo/workspaces-and-keys.js';

export class MongoIdentityStore extends ComposedIdentityStore {
  private constructor(private readonly handle: MongoHandle, collections: Collections) {
    super({
      workspaceKeys: new MongoWorkspaceKeyStore(handle, collections),
      members: new MongoMemberStore(handle, collections),
      customers: new MongoCustomerStore(handle, collections),
      oauth: new MongoOAuthStore(handle, collections),
    });
  }

  static async connect(uri: string, databaseName: string): Promise<MongoIdentityStore> {
    const handle = await connectMongo(uri, databaseName);
    const collections = identityCollections(handle.db);
    await assignUserRealms(collections);
    await createIndexes(collections);
    return new MongoIdentityStore(handle, collections);
  }

  /** Tests only: removes the whole database this store owns. */
  async dropDatabase(): Promise<void> {
    await this.handle.db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
