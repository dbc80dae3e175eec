// Starts the assistants service: config, store, the periodic jobs (the pruning of old records),
// the Connect server; stops them in reverse on close (SIGTERM when run on its own).
import { CallerSigner } from '@voice/runtime/caller';
import type { Env } from '@voice/runtime/config';
import { SecretBox } from '@voice/runtime/crypto';
import { createClient } from '@connectrpc/connect';
import { openInternalChannel, type InProcessServices } from '@voice/runtime/internal';
import { EmailSenderService } from '@voice/proto/voice/platform/v1/email';
import { TelephonyService } from '@voice/proto/voice/telephony/v1/telephony';
import { ToolsService } from '@voice/proto/voice/tools/v1/tools';
import { startPeriodicJobs } from '@voice/runtime/jobs';
import { createLogger, type Logger } from '@voice/runtime/logger';
import { runProcess } from '@voice/runtime/process';
import { serviceServerOptions, startConnectServer, startService, type StartedService } from '@voice/runtime/server';
import { openServiceStore } from '@voice/runtime/store';
import { egressPolicy } from '@voice/runtime/egress';
import { readAssistantsConfig } from './config.js';
import { ProviderKeyTester } from './inference/provider-key-test.js';
import { Ingestion } from './ingestion/ingestion.js';
import { assistantsRetentionJob } from './retention.js';
import { assistantsRoutes, assistantsServiceNames } from './routes.js';
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
    mongo: async (uri, database) => (await import('./store/mongo.js')).MongoAssistantsStore.connect(uri, database),
  });
  return startService(async (onClose) => {
    onClose(() => store.close());
    const jobs = await startPeriodicJobs(config.common, 'assistants', { logger: log }, [assistantsRetentionJob(store, config.common.retention)]);
    onClose(() => jobs.stop());
    const toolsChannel = openInternalChannel({ name: 'tools', url: config.toolsUrl }, options.local);
    onClose(() => toolsChannel.close());
    const telephonyChannel = openInternalChannel({ name: 'telephony', url: config.telephonyUrl }, options.local);
    onClose(() => telephonyChannel.close());
    const platformUsersChannel = openInternalChannel({ name: 'platform-users', url: config.platformUsersUrl }, options.local);
    onClose(() => platformUsersChannel.close());
    const signer = new CallerSigner(config.common.internalSecret);
    const policy = egressPolicy({ allowPrivate: config.egressAllowPrivate });
    const ingestion = new Ingestion({ store, policy, now: () => new Date(), logger: log.child({ component: 'ingestion' }) });
    onClose(() => ingestion.stop());
    // Documents a stop left processing are taken up again.
    ingestion.wake();
    return startConnectServer({
      ...serviceServerOptions('assistants', config, { logger: log, local: options.local, signer }),
      serviceNames: assistantsServiceNames,
      routes: assistantsRoutes({
        store,
        box: new SecretBox(config.encryptionKey),
        keyTester: new ProviderKeyTester({
          urls: config.providerUrls,
          policy,
          logger: log.child({ component: 'provider-key-test' }),
        }),
        tools: createClient(ToolsService, toolsChannel.transport),
        telephony: createClient(TelephonyService, telephonyChannel.transport),
        emailSenders: createClient(EmailSenderService, platformUsersChannel.transport),
        signer,
        ingestion,
        policy,
      }),
    });
  });
}

// Run on its own: with the process's metrics server (the platform serves one for all its parts).
if (require.main === module) runProcess('assistants', startAssistantsService);
