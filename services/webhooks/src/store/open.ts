// The webhooks store configuration asks for; the service and its delivery worker share it.
import type { CommonConfig } from '@voice/runtime/config';
import { openServiceStore } from '@voice/runtime/store';
import { SqliteWebhooksStore } from './sqlite.js';
import type { WebhooksStore } from './store.js';

export const openWebhooksStore = (common: CommonConfig): Promise<WebhooksStore> =>
  openServiceStore<WebhooksStore>(common, {
    service: 'webhooks',
    sqlite: (file) => new SqliteWebhooksStore(file),
    mongo: async (uri, database) => (await import('./mongo.js')).MongoWebhooksStore.connect(uri, database),
  });
