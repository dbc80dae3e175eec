// The whole platform in one process: every service on its own loopback port, called by the
// gateway over real HTTP/2, sharing one in-process notifier; data under DATA_DIR.
import { createLogger, openNotifier, readCommonConfig, type Env, type Logger, type Notifier } from '@voice/runtime';
import { startBillingService } from '@voice/billing';
import { startGateway } from '@voice/gateway';
import { startIdentityService } from '@voice/identity';
import { startPlatformUsersService } from '@voice/platform-users';
import { startTelephonyService } from '@voice/telephony';
import { startToolsService } from '@voice/tools';

export interface RunningPlatform {
  url: string;
  port: number;
  /** Loopback addresses of the services, for internal gRPC callers (tests, operators' tools). */
  services: Record<'identity' | 'tools' | 'telephony' | 'billing' | 'platformUsers', string>;
  close(): Promise<void>;
}

export interface PlatformOptions {
  /** Receives the one-time root key line on first start; stdout by default. */
  announce?: (line: string) => void;
  logger?: (service: string) => Logger;
}

/** Services listen on free loopback ports unless the operator pinned them. */
const loopbackDefaults = (env: Env): Env => ({
  VOICE_IDENTITY_PORT: '0',
  VOICE_TOOLS_PORT: '0',
  VOICE_TELEPHONY_PORT: '0',
  VOICE_BILLING_PORT: '0',
  VOICE_PLATFORM_USERS_PORT: '0',
  ...env,
});

export async function startPlatform(env: Env, options: PlatformOptions = {}): Promise<RunningPlatform> {
  const serviceEnv = loopbackDefaults(env);
  const common = readCommonConfig(serviceEnv);
  const loggerFor = options.logger ?? ((service: string) => createLogger({ service, level: common.logLevel }));
  const notifier: Notifier = await openNotifier(common.natsUrl, 'platform');
  const started: { close(): Promise<void> }[] = [];
  try {
    const identity = await startIdentityService(serviceEnv, { logger: loggerFor('identity'), notifier, announce: options.announce });
    started.push(identity);
    const tools = await startToolsService(serviceEnv, loggerFor('tools'));
    started.push(tools);
    const telephony = await startTelephonyService(serviceEnv, loggerFor('telephony'));
    started.push(telephony);
    const billing = await startBillingService(serviceEnv, loggerFor('billing'));
    started.push(billing);
    const platformUsers = await startPlatformUsersService(serviceEnv, loggerFor('platform-users'));
    started.push(platformUsers);
    const services = {
      identity: identity.server.url,
      tools: tools.server.url,
      telephony: telephony.server.url,
      billing: billing.server.url,
      platformUsers: platformUsers.server.url,
    };
    const gateway = await startGateway(
      {
        ...env,
        VOICE_IDENTITY_URL: services.identity,
        VOICE_TOOLS_URL: services.tools,
        VOICE_TELEPHONY_URL: services.telephony,
        VOICE_BILLING_URL: services.billing,
        VOICE_PLATFORM_USERS_URL: services.platformUsers,
      },
      { logger: loggerFor('gateway'), notifier },
    );
    started.push(gateway);
    return {
      url: gateway.url,
      port: gateway.port,
      services,
      close: async () => {
        // The gateway first, so no request reaches a service that is already gone.
        for (const component of started.reverse()) await component.close();
        await notifier.close();
      },
    };
  } catch (error) {
    for (const component of started.reverse()) await component.close();
    await notifier.close();
    throw error;
  }
}
