// Chooses the store adapter from configuration, in one place.
import { join } from 'node:path';
import type { CommonConfig } from '@voice/runtime/config';
import { MongoBillingStore } from './mongo.js';
import { SqliteBillingStore } from './sqlite.js';
import type { BillingStore } from './store.js';

export async function openBillingStore(config: CommonConfig): Promise<BillingStore> {
  if (config.mongodbUri) return MongoBillingStore.connect(config.mongodbUri, `${config.mongoDatabasePrefix}-billing`);
  return new SqliteBillingStore(join(config.dataDir, 'billing.sqlite'));
}
