// Chooses the store adapter from configuration, in one place.
import { join } from 'node:path';
import type { CommonConfig } from '@voice/runtime/config';
import { MongoPlatformUsersStore } from './mongo.js';
import { SqlitePlatformUsersStore } from './sqlite.js';
import type { PlatformUsersStore } from './store.js';

export async function openPlatformUsersStore(config: CommonConfig): Promise<PlatformUsersStore> {
  if (config.mongodbUri) return MongoPlatformUsersStore.connect(config.mongodbUri, `${config.mongoDatabasePrefix}-platform-users`);
  return new SqlitePlatformUsersStore(join(config.dataDir, 'platform-users.sqlite'));
}
