// The tools service's routes over a real SQLite store, secret box and runner (private egress
// refused), behind either test tier: the router transport (tier 2) or a real server (tier 3).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ToolsService } from '@voice/proto/voice/tools/v1/tools';
import { SecretBox } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import { ToolSecrets } from '@voice/contracts/tool-secrets';
import { toolsRoutes } from '../src/routes.js';
import { createToolRunner } from '../src/runner.js';
import { SqliteToolStore } from '../src/store/sqlite.js';
import { routerClient, serverClient, type TierClient } from '../../runtime/test/service-tiers.js';

export { failure } from '../../runtime/test/service-tiers.js';

export interface ToolsTier extends TierClient<typeof ToolsService> {
  /** The server's address (tier 3 only). */
  url?: string;
}

/** Tier 2 by default; `server` puts the routes on a real server on port 0. close() ends the tier, then the store. */
export async function setup(tier: 'router' | 'server' = 'router'): Promise<ToolsTier> {
  const dir = mkdtempSync(join(tmpdir(), 'tools-service-'));
  const store = new SqliteToolStore(join(dir, `${newId()}.sqlite`));
  const routes = toolsRoutes({ store, secrets: new ToolSecrets(new SecretBox(randomBytes(32))), runner: createToolRunner({ allowPrivate: false }) });
  const served = tier === 'server' ? await serverClient(ToolsService, routes) : undefined;
  const client = served ?? routerClient(ToolsService, routes);
  return {
    ...client,
    url: served?.server.url,
    close: async () => {
      await client.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
