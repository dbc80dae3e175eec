// Chooses the store adapter from configuration, in one place.
import { join } from 'node:path';
import type { CommonConfig } from '@voice/runtime/config';
import { connectMongoTelephonyStore } from './mongo.js';
import { openSqliteTelephonyStore } from './sqlite.js';
import type { TelephonyStore } from './store.js';

export async function openTelephonyStore(config: CommonConfig): Promise<TelephonyStore> {
  if (config.mongodbUri) return connectMongoTelephonyStore(config.mongodbUri, `${config.mongoDatabasePrefix}-telephony`);
  return openSqliteTelephonyStore(join(config.dataDir, 'telephony.sqlite'));
}
