// A service whose API lands in a later release: it already runs, listens and answers health
// checks, so deployment, readiness and the launcher treat it like every other service.
import { CallerSigner } from './caller.js';
import { readPort, readString, type Env } from './config.js';
import { startConnectServer, type RunningServer } from './connect-server.js';
import { createLogger, type Logger } from './logger.js';
import { readCommonConfig } from './service-config.js';

export interface HealthOnlyServiceSpec {
  name: string;
  /** Prefix of its variables, e.g. VOICE_BILLING gives VOICE_BILLING_HOST and VOICE_BILLING_PORT. */
  variablePrefix: string;
  defaultPort: number;
}

export async function startHealthOnlyService(
  spec: HealthOnlyServiceSpec,
  env: Env,
  logger?: Logger,
): Promise<{ server: RunningServer; close(): Promise<void> }> {
  const common = readCommonConfig(env);
  const server = await startConnectServer({
    name: spec.name,
    host: readString(env, `${spec.variablePrefix}_HOST`, '127.0.0.1'),
    port: readPort(env, `${spec.variablePrefix}_PORT`, spec.defaultPort),
    signer: new CallerSigner(common.internalSecret),
    logger: logger ?? createLogger({ service: spec.name, level: common.logLevel }),
    serviceNames: [],
    routes: () => {},
  });
  return { server, close: () => server.close() };
}
