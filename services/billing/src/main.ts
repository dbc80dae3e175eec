// Starts the billing service. Its API arrives with its own issue; until then it runs and
// answers the standard gRPC health service, so the platform's topology is complete.
import { closeOnSignal, createLogger, failStart, startHealthOnlyService, type Env, type Logger } from '@voice/runtime';

export const startBillingService = (env: Env, logger?: Logger) =>
  startHealthOnlyService({ name: 'billing', variablePrefix: 'VOICE_BILLING', defaultPort: 50054 }, env, logger);

if (require.main === module) {
  startBillingService(process.env).then((service) => closeOnSignal(service, createLogger({ service: 'billing', level: 'info' })), failStart);
}
