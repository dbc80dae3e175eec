// Starts the identity service: config, store, the root bootstrap and the built-in platform client,
// the periodic jobs (the pruning of old OAuth records), then the Connect server; stops them in
// reverse on close (SIGTERM when run on its own).
import type { Env } from '@voice/runtime/config';
import { egressPolicy } from '@voice/runtime/egress';
import type { InProcessServices } from '@voice/runtime/internal';
import { startPeriodicJobs } from '@voice/runtime/jobs';
import { createLogger, type Logger } from '@voice/runtime/logger';
import { openNotifier, type Notifier } from '@voice/runtime/nats';
import { runProcess } from '@voice/runtime/process';
import { serviceServerOptions, startConnectServer, startService, type StartedService } from '@voice/runtime/server';
import { openServiceStore } from '@voice/runtime/store';
import { bootstrapRoot } from './workspaces/bootstrap.js';
import { readIdentityConfig } from './config.js';
import { guardedMetadataFetcher } from './oauth/metadata-fetch.js';
import { PasswordHasher } from './users/passwords.js';
import { ensurePlatformClient } from './oauth/platform-client.js';
import { identityRetentionJob } from './retention.js';
import { identityRoutes, identityServiceNames } from './routes.js';
import { openSqliteIdentityStore } from './store/sqlite.js';
import type { IdentityStore } from './store/store.js';

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
  return startService(async (onClose) => {
    let notifier = options.notifier;
    if (!notifier) {
      const own = await openNotifier(config.common.natsUrl, 'identity');
      onClose(() => own.close());
      notifier = own;
    }
    const store = await openServiceStore<IdentityStore>(config.common, {
      service: 'identity',
      sqlite: openSqliteIdentityStore,
      mongo: async (uri, database) => (await import('./store/mongo.js')).connectMongoIdentityStore(uri, database),
    });
    onClose(() => store.close());
    await bootstrapRoot(store, {
      rootApiKey: config.rootApiKey,
      logger,
      announce: options.announce ?? ((line) => process.stdout.write(`${line}\n`)),
    });
    await ensurePlatformClient(store);
    const jobs = await startPeriodicJobs(config.common, 'identity', { logger }, [identityRetentionJob(store, config.common.retention)]);
    onClose(() => jobs.stop());
    return startConnectServer({
      ...serviceServerOptions('identity', config, { logger: logger, local: options.local }),
      serviceNames: identityServiceNames,
      routes: identityRoutes({
        store,
        notifier,
        fetchClientMetadata: guardedMetadataFetcher(egressPolicy({ allowPrivate: config.egressAllowPrivate }), { logger: logger.child({ component: 'client-metadata' }) }),
        passwords: new PasswordHasher(config.passwordHashCost),
      }),
    });
  });
}

// Run on its own: with the process's metrics server (the platform serves one for all its parts).
if (require.main === module) runProcess('identity', startIdentityService);
