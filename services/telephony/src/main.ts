// Starts the telephony service. Its API arrives with its own issue; until then it runs and
// answers the standard gRPC health service, so the platform's topology is complete.
import { closeOnSignal, createLogger, failStart, startHealthOnlyService, type Env, type Logger } from '@voice/runtime';

export const startTelephonyService = (env: Env, logger?: Logger) =>
  startHealthOnlyService({ name: 'telephony', variablePrefix: 'VOICE_TELEPHONY', defaultPort: 50053 }, env, logger);

if (require.main === module) {
  startTelephonyService(process.env).then((service) => closeOnSignal(service, createLogger({ service: 'telephony', level: 'info' })), failStart);
}
