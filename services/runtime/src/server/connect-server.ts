// The HTTP/2 server every service runs: Connect, gRPC and gRPC-Web on one port, the health
// service, the signed-caller check, per-RPC metrics and logs, and a shutdown that does not hang
// on idle sessions. Each connection ends after its maximum age (connect-server-age.ts). In the
// single-process mode the same handlers are also callable in process (in-process-services.ts).
import http2 from 'node:http2';
import { Code, ConnectError, type ConnectRouter, type Interceptor } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { Health } from '@voice/proto/grpc/health/v1/health';
import { callerHeader, callerKey, requestIdHeader, type CallerSigner } from '../caller.js';
import { defaultConnectionAge, limitConnectionAge, type ConnectionAge } from './connect-server-age.js';
import { HealthRegistry, registerHealth, ServingStatus } from './health.js';
import { listenOn } from './listen.js';
import type { InProcessServices } from '../internal/in-process-services.js';
import type { Logger } from '../logger.js';
import { rpcMetricsInterceptor } from '../metrics/rpc.js';
import type { MetricsRegistry } from '../metrics/registry.js';

export interface ConnectServerOptions {
  name: string;
  host: string;
  port: number;
  signer: CallerSigner;
  logger: Logger;
  /** Registers the service's own Connect services; health is added here. */
  routes: (router: ConnectRouter) => void;
  /** Fully-qualified names of the services routes() registers, reported as SERVING. */
  serviceNames: string[];
  /** Where the RPC metrics go (labelled with `name`); the process's registry by default. */
  registry?: MetricsRegistry;
  /** CommonConfig.connectionAge; 300 s with a 30 s grace when absent. */
  connectionAge?: ConnectionAge;
  /** The process's in-process services (single-process mode): the handlers are registered there under `name` too. */
  local?: InProcessServices;
}

export type { ConnectionAge, ConnectionAgeLimit } from './connect-server-age.js';

export interface RunningServer {
  port: number;
  url: string;
  health: HealthRegistry;
  close(): Promise<void>;
}

/** A started service process part: its server, and how to stop it with everything it opened. */
export interface StartedService {
  server: RunningServer;
  close(): Promise<void>;
}

/** Rejects calls without a valid signed caller, except health checks (probes carry none). */
export function callerInterceptor(signer: CallerSigner, logger: Logger): Interceptor {
  return (next) => async (request) => {
    if (request.service.typeName === Health.typeName) return next(request);
    const caller = signer.verify(request.header.get(callerHeader), request.header.get(requestIdHeader) ?? '');
    if (!caller) throw new ConnectError('the call carries no valid signed caller', Code.Unauthenticated);
    request.contextValues.set(callerKey, caller);
    try {
      return await next(request);
    } catch (error) {
      const connectError = ConnectError.from(error);
      if (connectError.code === Code.Internal || connectError.code === Code.Unknown) {
        logger.error('call failed', {
          method: `${request.service.typeName}/${request.method.name}`,
          request_id: caller.requestId,
          error: connectError.cause ?? error,
        });
        throw new ConnectError('internal error', Code.Internal);
      }
      throw connectError;
    }
  };
}

export async function startConnectServer(options: ConnectServerOptions): Promise<RunningServer> {
  const health = new HealthRegistry();
  // What the adapter routes to, captured so the in-process path calls the same handlers.
  let handlers: ConnectRouter['handlers'] = [];
  const handler = connectNodeAdapter({
    // The first is the outermost: the metrics see the caller check's refusals too.
    interceptors: [
      rpcMetricsInterceptor({ service: options.name, logger: options.logger, registry: options.registry }),
      callerInterceptor(options.signer, options.logger),
    ],
    routes: (router) => {
      options.routes(router);
      registerHealth(router, health);
      handlers = router.handlers;
    },
  });
  const server = http2.createServer(handler);
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  limitConnectionAge(server, options.connectionAge ?? defaultConnectionAge, options.logger);
  const { port, url } = await listenOn(server, options.port, options.host);
  health.set('', ServingStatus.SERVING);
  for (const name of options.serviceNames) health.set(name, ServingStatus.SERVING);
  const registration = options.local?.register(options.name, handlers);
  options.logger.info('listening', { port, host: options.host });

  return {
    port,
    url,
    health,
    close: async () => {
      for (const name of ['', ...options.serviceNames]) health.set(name, ServingStatus.NOT_SERVING);
      health.close();
      const withdrawn = registration?.withdraw();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Let in-flight streams finish; idle sessions would otherwise keep close() waiting forever.
      for (const session of sessions) session.close();
      const forced = setTimeout(() => sessions.forEach((session) => session.destroy()), 5000);
      await closed;
      clearTimeout(forced);
      await withdrawn;
    },
  };
}
