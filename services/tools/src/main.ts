// Starts the tools service: config, store, Connect server; stops cleanly on SIGTERM.
import { CallerSigner } from '@voice/runtime/caller';
import type { Env } from '@voice/runtime/config';
import { SecretBox } from '@voice/runtime/crypto';
import type { InProcessServices } from '@voice/runtime/internal';
import { createLogger, type Logger } from '@voice/runtime/logger';
import { runProcess } from '@voice/runtime/process';
import { startConnectServer, type StartedService } from '@voice/runtime/server';
import { readToolsConfig } from './config.js';
import { ToolSecrets } from './domain/secrets.js';
import { toolsRoutes, toolsServiceNames } from './routes.js';
import { createToolRunner } from './runner.js';
import { openToolStore } from './store/open.js';

export interface ToolsOptions {
  logger?: Logger;
  /** The process's in-process services (single-process mode): the handlers are callable there too. */
  local?: InProcessServices;
}

export async function startToolsService(env: Env, options: ToolsOptions = {}): Promise<StartedService> {
  const config = readToolsConfig(env);
  const log = options.logger ?? createLogger({ service: 'tools', level: config.common.logLevel });
  const store = await openToolStore(config.common);
  const server = await startConnectServer({
    name: 'tools',
    host: config.host,
    port: config.port,
    connectionAge: config.common.connectionAge,
    signer: new CallerSigner(config.common.internalSecret),
    logger: log,
    local: options.local,
    serviceNames: toolsServiceNames,
    routes: toolsRoutes({
      store,
      secrets: new ToolSecrets(new SecretBox(config.encryptionKey)),
      runner: createToolRunner({ allowPrivate: config.egressAllowPrivate }),
    }),
  });
  return {
    server,
    close: async () => {
      await server.close();
      await store.close();
    },
  };
}

// Run on its own: with the process's metrics server (the platform serves one for all its parts).
if (require.main === module) runProcess('tools', startToolsService);
