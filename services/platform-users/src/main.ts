// Starts the platform-users service: config, store, DNS lookups, the Connect server; stops
// cleanly on SIGTERM. (The platform users themselves arrive with the rest of their issue.)
import { CallerSigner, closeOnSignal, createLogger, failStart, startConnectServer, type Env, type Logger, type StartedService } from '@voice/runtime';
import { readPlatformUsersConfig } from './config.js';
import { ResolverDnsLookup } from './domains/dns-lookup.js';
import { platformUsersRoutes, platformUsersServiceNames } from './routes.js';
import { openCustomDomainStore } from './store/open.js';

export async function startPlatformUsersService(env: Env, logger?: Logger): Promise<StartedService> {
  const config = readPlatformUsersConfig(env);
  const log = logger ?? createLogger({ service: 'platform-users', level: config.common.logLevel });
  const store = await openCustomDomainStore(config.common);
  try {
    const server = await startConnectServer({
      name: 'platform-users',
      host: config.host,
      port: config.port,
      signer: new CallerSigner(config.common.internalSecret),
      logger: log,
      serviceNames: platformUsersServiceNames,
      routes: platformUsersRoutes({
        store,
        dns: new ResolverDnsLookup(config.dnsServers),
        platformHost: config.platformHost,
        now: () => new Date(),
      }),
    });
    return {
      server,
      close: async () => {
        await server.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

if (require.main === module) {
  startPlatformUsersService(process.env).then(
    (service) => closeOnSignal(service, createLogger({ service: 'platform-users', level: 'info' })),
    failStart,
  );
}
