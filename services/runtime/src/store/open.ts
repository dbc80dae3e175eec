// Chooses a service's store adapter from configuration, in one place for every service: MongoDB when
// MONGODB_URI is set, otherwise SQLite in the data directory, under names existing data is found by.
import { join } from 'node:path';
import type { CommonConfig } from '../config/service-config.js';

export interface ServiceStoreAdapters<Store> {
  /** The service's name: the SQLite file is `<dataDir>/<service>.sqlite`, the database `<prefix>-<service>`. */
  service: string;
  sqlite: (file: string) => Store | Promise<Store>;
  /**
   * Imports the service's MongoDB adapter itself (`await import(...)`): a process on SQLite then never
   * loads the driver, about 7 MB of heap and 20-30 MB of RSS that the single process kept for nothing.
   */
  mongo: (uri: string, database: string) => Store | Promise<Store>;
}

export type StoreLocation = Pick<CommonConfig, 'dataDir' | 'mongodbUri' | 'mongoDatabasePrefix'>;

export async function openServiceStore<Store>(config: StoreLocation, adapters: ServiceStoreAdapters<Store>): Promise<Store> {
  if (config.mongodbUri) return adapters.mongo(config.mongodbUri, `${config.mongoDatabasePrefix}-${adapters.service}`);
  return adapters.sqlite(join(config.dataDir, `${adapters.service}.sqlite`));
}
