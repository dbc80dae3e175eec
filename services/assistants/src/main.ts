// Starts the assistants service: config, store, the periodic jobs (the pruning of old records),
// the Connect server; stops them in reverse on close (SIGTERM when run on its own).
import type { Env } from '@voice/runtime/config';
import { SecretBox } from '@voice/runtime/crypto';
import type { InProcessServices } from '@voice/runtime/internal';
import { startPeriodicJobs } from '@voice/runtime/jobs';
import { createLogger, type Logger } from '@voice/runtime/logger';
import { runProcess } from '@voice/runtime/process';
import { serviceServerOptions, startConnectServer, startService, type StartedService } from '@voice/runtime/server';
import { openServiceStore } from '@voice/runtime/store';
import { ToolSecrets } from '@voice/contracts/tool-secrets';
import { readAssistantsConfig } from './config.js';
import { assistantsRetentionJob } from './retention.js';
import { assistantsRoutes, assistantsServiceNames } from './routes.js';
import { MongoAssistantsStore } from './store/mongo.js';
import { SqliteAssistantsStore } from './store/sqlite.js';
import type { AssistantsStore } from './store/store.js';

export interface AssistantsOptions {
  logger?: Logger;
  /** The process's in-process services (single-process mode): the handlers are callable there too. */
  local?: InProcessServices;
}

export async function startAssistantsService(env: Env, options: AssistantsOptions = {}): Promise<StartedService> {
  const config = readAssistantsConfig(env);
  const log = options.logger ?? createLogger({ service: 'assistants', level: config.common.logLevel });
  const store = await openServiceStore<AssistantsStore>(config.common, {
    service: 'assistants',
    sqlite: (file) => new SqliteAssistantsStore(file),
    mongo: (uri, database) => MongoAssistantsStore.connect(uri, database),
  });
  return startService(async (onClose) => {
    onClose(() => store.close());
    const jobs = await startPeriodicJobs(config.common, 'assistants', { logger: log }, [assistantsRetentionJob(store, config.common.retention)]);
    onClose(() => jobs.stop());
    return startConnectServer({
      ...serviceServerOptions('assistants', config, { logger: log, local: options.local }),
      serviceNames: assistantsServiceNames,
      routes: assistantsRoutes({ store, toolSecrets: new ToolSecrets(new SecretBox(config.encryptionKey)) }),
    });
  });
}

// Run on its own: with the process's metrics server (the platform serves one for all its parts).
if (require.main === module) runProcess('assistants', startAssistantsService);
