// Starts the platform-users service. Its API arrives with its own issue; until then it runs and
// answers the standard gRPC health service, so the platform's topology is complete.
import { closeOnSignal, createLogger, failStart, startHealthOnlyService, type Env, type Logger } from '@voice/runtime';

export const startPlatformUsersService = (env: Env, logger?: Logger) =>
  startHealthOnlyService({ name: 'platform-users', variablePrefix: 'VOICE_PLATFORM_USERS', defaultPort: 50055 }, env, logger);

if (require.main === module) {
  startPlatformUsersService(process.env).then((service) => closeOnSignal(service, createLogger({ service: 'platform-users', level: 'info' })), failStart);
}
