// Chooses the store adapter from configuration, in one place.
import { join } from 'node:path';
import type { CommonConfig } from '@voice/runtime';
import { MongoCustomDomainStore } from './mongo.js';
import { SqliteCustomDomainStore } from './sqlite.js';
import type { CustomDomainStore } from './store.js';

export async function openCustomDomainStore(config: CommonConfig): Promise<CustomDomainStore> {
  if (config.mongodbUri) return MongoCustomDomainStore.connect(config.mongodbUri, `${config.mongoDatabasePrefix}-platform-users`);
  return new SqliteCustomDomainStore(join(config.dataDir, 'platform-users.sqlite'));
}
