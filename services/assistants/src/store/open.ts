// Chooses the store adapter from configuration, in one place.
import { join } from 'node:path';
import type { CommonConfig } from '@voice/runtime/config';
import { MongoAssistantsStore } from './mongo.js';
import { SqliteAssistantsStore } from './sqlite.js';
import type { AssistantsStore } from './store.js';

export async function openAssistantsStore(config: CommonConfig): Promise<AssistantsStore> {
  if (config.mongodbUri) return MongoAssistantsStore.connect(config.mongodbUri, `${config.mongoDatabasePrefix}-assistants`);
  return new SqliteAssistantsStore(join(config.dataDir, 'assistants.sqlite'));
}
