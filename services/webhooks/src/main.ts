// Starts the webhooks service: config, store and the Connect server (endpoints, deliveries,
// settings); stops them in reverse on close (SIGTERM when run on its own). The delivery worker
// runs apart (src/delivery).
import type { Env } from '@voice/runtime/config';
import { SecretBox } from '@voice/runtime/crypto';
import type { InProcessServices } from '@voice/runtime/internal';
import { createLogger, type Logger } from '@voice/runtime/logger';
import { runProcess } from '@voice/runtime/process';
import { serviceServerOptions, startConnectServer, startService, type StartedService } from '@voice/runtime/server';
import { readWebhooksConfig } from './config.js';
import { webhooksRoutes, webhooksServiceNames } from './routes.js';
import { openWebhooksStore } from './store/open.js';

export interface WebhooksOptions {
  logger?: Logger;
  /** The process's in-process services (single-process mode): the handlers are callable there too. */
  local?: InProcessServices;
}

export async function startWebhooksService(env: Env, options: WebhooksOptions = {}): Promise<StartedService> {
  const config = readWebhooksConfig(env);
  const logger = options.logger ?? createLogger({ service: 'webhooks', level: config.common.logLevel });
  return startService(async (onClose) => {
    const store = await openWebhooksStore(config.common);
    onClose(() => store.close());
    return startConnectServer({
      ...serviceServerOptions('webhooks', config, { logger, local: options.local }),
      serviceNames: webhooksServiceNames,
      routes: webhooksRoutes({ store, box: new SecretBox(config.encryptionKey), allowPrivate: config.egressAllowPrivate }),
    });
  });
}

// Run on its own: with the process's metrics server (the platform serves one for all its parts).
if (require.main === module) runProcess('webhooks', startWebhooksService);
