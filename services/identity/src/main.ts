// Starts the identity service: config, store, the root bootstrap and the built-in platform client,
// then the Connect server; stops on SIGTERM.
import { CallerSigner } from '@voice/runtime/caller';
import type { Env } from '@voice/runtime/config';
import { egressPolicy } from '@voice/runtime/egress';
import type { InProcessServices } from '@voice/runtime/internal';
import { createLogger, type Logger } from '@voice/runtime/logger';
import { openNotifier, type Notifier } from '@voice/runtime/nats';
import { runProcess } from '@voice/runtime/process';
import { startConnectServer, type StartedService } from '@voice/runtime/server';
import { bootstrapRoot } from './bootstrap.js';
import { readIdentityConfig } from './config.js';
import { guardedMetadataFetcher } from './oauth/metadata-fetch.js';
import { PasswordHasher } from './passwords.js';
import { ensurePlatformClient } from './oauth/platform-client.js';
import { identityRoutes, identityServiceNames } from './routes.js';
import { openIdentityStore } from './store/open.js';

/** What startIdentityService returns (the runtime's StartedService). */
export type StartedIdentity = StartedService;

export interface IdentityOptions {
  logger?: Logger;
  /** The process's notifier in the single-process mode; otherwise one is opened from NATS_URL. */
  notifier?: Notifier;
  announce?: (line: string) => void;
  /** The process's in-process services (single-process mode): the handlers are callable there too. */
  local?: InProcessServices;
}

export async function startIdentityService(env: Env, options: IdentityOptions = {}): Promise<StartedIdentity> {
  const config = readIdentityConfig(env);
  const logger = options.logger ?? createLogger({ service: 'identity', level: config.common.logLevel });
  const ownNotifier = options.notifier === undefined;
  const notifier =
    options.notifier ?? (await openNotifier(config.common.natsUrl, 'identity'));
  const store = await openIdentityStore(config.common);
  await bootstrapRoot(store, {
    rootApiKey: config.rootApiKey,
    logger,
    announce: options.announce ?? ((line) => process.stdout.write(`${line}\n`)),
  });
  await ensurePlatformClient(store);
  const server = await startConnectServer({
    name: 'identity',
    host: config.host,
    port: config.port,
    connectionAge: config.common.connectionAge,
    signer: new CallerSigner(config.common.internalSecret),
    logger,
    local: options.local,
    serviceNames: identityServiceNames,
    routes: identityRoutes({
      store,
      notifier,
      fetchClientMetadata: guardedMetadataFetcher(egressPolicy({ allowPrivate: config.egressAllowPrivate })),
      passwords: new PasswordHasher(config.passwordHashCost),
    }),
  });
  return {
    server,
    close: async () => {
      await server.close();
      await store.close();
      if (ownNotifier) await notifier.close();
    },
  };
}

// Run on its own: with the process's metrics server (the platform serves one for all its parts).
if (require.main === module) runProcess('identity', startIdentityService);
