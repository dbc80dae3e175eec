// Chooses the store adapter from configuration, in one place.
import { join } from 'node:path';
import type { CommonConfig } from '@voice/runtime/config';
import { MongoIdentityStore } from './mongo.js';
import { SqliteIdentityStore } from './sqlite.js';
import type { IdentityStore } from './store.js';

export async function openIdentityStore(config: CommonConfig): Promise<IdentityStore> {
  if (config.mongodbUri) return MongoIdentityStore.connect(config.mongodbUri, `${config.mongoDatabasePrefix}-identity`);
  return new SqliteIdentityStore(join(config.dataDir, 'identity.sqlite'));
}
