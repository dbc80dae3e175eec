// Chooses the store adapter from configuration, in one place.
import { join } from 'node:path';
import type { CommonConfig } from '@voice/runtime/config';
import { MongoToolStore } from './mongo.js';
import { SqliteToolStore } from './sqlite.js';
import type { ToolStore } from './store.js';

export async function openToolStore(config: CommonConfig): Promise<ToolStore> {
  if (config.mongodbUri) return MongoToolStore.connect(config.mongodbUri, `${config.mongoDatabasePrefix}-tools`);
  return new SqliteToolStore(join(config.dataDir, 'tools.sqlite'));
}
