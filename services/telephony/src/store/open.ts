// Chooses the store adapter from configuration, in one place.
import { join } from 'node:path';
import type { CommonConfig } from '@voice/runtime/config';
import { MongoTelephonyStore } from './mongo.js';
import { SqliteTelephonyStore } from './sqlite.js';
import type { TelephonyStore } from './store.js';

export async function openTelephonyStore(config: CommonConfig): Promise<TelephonyStore> {
  if (config.mongodbUri) return MongoTelephonyStore.connect(config.mongodbUri, `${config.mongoDatabasePrefix}-telephony`);
  return new SqliteTelephonyStore(join(config.dataDir, 'telephony.sqlite'));
}
