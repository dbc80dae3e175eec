// IdentityStore on MongoDB: the service's own database; unique indexes on the root marker, key,
// token and code hashes, e-mails and (workspace, user) memberships; a transaction wherever two
// writes must agree (MongoDB transactions need a replica set, as production runs).
import { connectMongo } from '@voice/runtime/store/mongo';
import type { MongoContext } from './mongo/context.js';
import { mongoCustomerStore } from './mongo/customers.js';
import { identityCollections } from './mongo/documents.js';
import { createIndexes } from './mongo/indexes.js';
import { mongoOAuthStore } from './mongo/oauth.js';
import { assignUserRealms } from './mongo/realm-migration.js';
import { mongoMemberStore } from './mongo/users-and-members.js';
import { mongoWorkspaceKeyStore } from './mongo/workspaces-and-keys.js';
import type { IdentityStore } from './store.js';

/** Connects to the service's database, gives users of before realms theirs, and creates the indexes that are missing. */
export async function connectMongoIdentityStore(uri: string, databaseName: string): Promise<IdentityStore> {
  const handle = await connectMongo(uri, databaseName);
  const context: MongoContext = { handle, collections: identityCollections(handle.db) };
  await assignUserRealms(context.collections);
  await createIndexes(context.collections);
  return {
    ...mongoWorkspaceKeyStore(context),
    ...mongoMemberStore(context),
    ...mongoCustomerStore(context),
    ...mongoOAuthStore(context),
    close: () => handle.close(),
  };
}
