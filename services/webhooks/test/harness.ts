// The webhooks service's routes over a real SQLite store and secret box, behind either test tier:
// the router transport (tier 2) or a real server (tier 3). `allowPrivate` is off unless asked for.
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebhooksService } from '@voice/proto/voice/webhooks/v1/webhooks';
import { SecretBox } from '@voice/runtime/crypto';
import { webhooksRoutes } from '../src/routes.js';
import { SqliteWebhooksStore } from '../src/store/sqlite.js';
import { routerClient, serverClient, type TierClient } from '../../runtime/test/service-tiers.js';

export { failure } from '../../runtime/test/service-tiers.js';

export interface WebhooksTier extends TierClient<typeof WebhooksService> {
  store: SqliteWebhooksStore;
  box: SecretBox;
}

export async function setup(tier: 'router' | 'server' = 'router', options: { allowPrivate?: boolean } = {}): Promise<WebhooksTier> {
  const dir = mkdtempSync(join(tmpdir(), 'webhooks-service-'));
  const store = new SqliteWebhooksStore(join(dir, 'webhooks.sqlite'));
  const box = new SecretBox(randomBytes(32));
  const routes = webhooksRoutes({ store, box, allowPrivate: options.allowPrivate ?? false });
  const client = tier === 'server' ? await serverClient(WebhooksService, routes) : routerClient(WebhooksService, routes);
  return {
    ...client,
    store,
    box,
    close: async () => {
      await client.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
