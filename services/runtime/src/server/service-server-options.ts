// What every service's Connect server takes from the service's own configuration, written once: its
// name, where it listens, its connection age and the signed-caller check, its logger and the in-process
// registration of the single-process mode. A service adds its routes and service names.
import { CallerSigner } from '../caller.js';
import type { CommonConfig } from '../config/service-config.js';
import type { InProcessServices } from '../internal/in-process-services.js';
import type { Logger } from '../logger.js';
import type { ConnectServerOptions } from './connect-server.js';

export interface ListeningServiceConfig {
  host: string;
  port: number;
  common: Pick<CommonConfig, 'connectionAge' | 'internalSecret'>;
}

export function serviceServerOptions(
  name: string,
  config: ListeningServiceConfig,
  deps: { logger: Logger; local?: InProcessServices; signer?: CallerSigner },
): Omit<ConnectServerOptions, 'routes' | 'serviceNames'> {
  return {
    name,
    host: config.host,
    port: config.port,
    connectionAge: config.common.connectionAge,
    signer: deps.signer ?? new CallerSigner(config.common.internalSecret),
    logger: deps.logger,
    local: deps.local,
  };
}
