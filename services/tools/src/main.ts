// Starts the tools service: config, store, the periodic jobs (the pruning of old records), the
// Connect server; stops them in reverse on close (SIGTERM when run on its own).
import type { Env } from '@voice/runtime/config';
import { SecretBox } from '@voice/runtime/crypto';
import { CallerSigner } from '@voice/runtime/caller';
import { AssistantDirectory, openInternalChannel, type InProcessServices } from '@voice/runtime/internal';
import { startPeriodicJobs } from '@voice/runtime/jobs';
import { createLogger, type Logger } from '@voice/runtime/logger';
import { runProcess } from '@voice/runtime/process';
import { serviceServerOptions, startConnectServer, startService, type StartedService } from '@voice/runtime/server';
import { openServiceStore } from '@voice/runtime/store';
import { readToolsConfig } from './config.js';
import { ToolSecrets } from '@voice/contracts/tool-secrets';
import { toolsRoutes, toolsServiceNames } from './routes.js';
import { toolsRetentionJob } from './retention.js';
import { createToolRunner } from './runner.js';
import { SqliteToolStore } from './store/sqlite.js';
import type { ToolStore } from './store/store.js';

export interface ToolsOptions {
  logger?: Logger;
  /** The process's in-process services (single-process mode): the handlers are callable there too. */
  local?: InProcessServices;
}

export async function startToolsService(env: Env, options: ToolsOptions = {}): Promise<StartedService> {
  const config = readToolsConfig(env);
  const log = options.logger ?? createLogger({ service: 'tools', level: config.common.logLevel });
  const store = await openServiceStore<ToolStore>(config.common, {
    service: 'tools',
    sqlite: (file) => new SqliteToolStore(file),
    mongo: async (uri, database) => (await import('./store/mongo.js')).MongoToolStore.connect(uri, database),
  });
  return startService(async (onClose) => {
    onClose(() => store.close());
    const jobs = await startPeriodicJobs(config.common, 'tools', { logger: log }, [toolsRetentionJob(store, config.common.retention)]);
    onClose(() => jobs.stop());
    const signer = new CallerSigner(config.common.internalSecret);
    const assistantsChannel = openInternalChannel({ name: 'assistants', url: config.assistantsUrl }, options.local);
    onClose(() => assistantsChannel.close());
    return startConnectServer({
      ...serviceServerOptions('tools', config, { logger: log, local: options.local, signer }),
      serviceNames: toolsServiceNames,
      routes: toolsRoutes({
        store,
        secrets: new ToolSecrets(new SecretBox(config.encryptionKey)),
        runner: createToolRunner({ allowPrivate: config.egressAllowPrivate, logger: log.child({ component: 'tool-test' }) }),
        assistants: new AssistantDirectory(assistantsChannel.transport, signer, 'tools'),
      }),
    });
  });
}

// Run on its own: with the process's metrics server (the platform serves one for all its parts).
if (require.main === module) runProcess('tools', startToolsService);
