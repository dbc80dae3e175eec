// Starts the gateway: config, service clients, revocation notices, HTTP server. On SIGTERM it
// drains: /readyz answers 503 at once, everything else is served for VOICE_DRAIN_DELAY_SECONDS
// (so load balancers take it out first), then the listener closes and requests in flight finish.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { fromBinary } from '@bufbuild/protobuf';
import { CallerSigner } from '@voice/runtime/caller';
import type { Env } from '@voice/runtime/config';
import type { InProcessServices } from '@voice/runtime/internal';
import { createLogger, type Logger } from '@voice/runtime/logger';
import { credentialsRevokedSubject, openNotifier, type Notifier } from '@voice/runtime/nats';
import { runProcess } from '@voice/runtime/process';
import { CredentialsRevokedSchema } from '@voice/proto/voice/identity/v1/identity';
import { buildGatewayApp } from './app.js';
import { CredentialCache } from './auth/credential-cache.js';
import { createServiceClients } from './clients.js';
import { openWindowCounter, rateLimitBuckets } from '@voice/runtime/counters';
import { readGatewayConfig } from './config.js';

export interface StartedGateway {
  port: number;
  url: string;
  /** The express app, for tests and tools that read what it serves (its REST route table). */
  app: Express;
  close(): Promise<void>;
}

export interface GatewayOptions {
  logger?: Logger;
  /** The process's notifier in the single-process mode; otherwise one is opened from NATS_URL. */
  notifier?: Notifier;
  /** The services of this process (single-process mode, VOICE_INTERNAL_TRANSPORT=in-process): called in process instead of over HTTP/2. */
  local?: InProcessServices;
}

/** Requests still running at shutdown get this long to finish. */
const drainMs = 10_000;

export async function startGateway(env: Env, options: GatewayOptions = {}): Promise<StartedGateway> {
  const config = readGatewayConfig(env);
  const logger = options.logger ?? createLogger({ service: 'gateway', level: config.common.logLevel });
  const ownNotifier = options.notifier === undefined;
  const notifier =
    options.notifier ?? (await openNotifier(config.common.natsUrl, 'gateway'));
  const cache = new CredentialCache();
  const unsubscribe = notifier.subscribe(credentialsRevokedSubject, (payload) => {
    cache.invalidate(fromBinary(CredentialsRevokedSchema, payload));
  });
  const clients = createServiceClients(config.services, options.local);
  const counterDown = (bucket: string) => (error: unknown) =>
    logger.warn('rate-limit bucket unreachable; counting in this replica for now', { bucket, error });
  const oauthCounter = await openWindowCounter(config.common, rateLimitBuckets.oauth, config.oauthRateLimitWindowSeconds * 1000, counterDown(rateLimitBuckets.oauth));
  const accountCounter = await openWindowCounter(config.common, rateLimitBuckets.api, config.rateLimit.windowSeconds * 1000, counterDown(rateLimitBuckets.api));
  let boundUrl = '';
  let draining = false;
  const app = buildGatewayApp({
    config,
    clients,
    signer: new CallerSigner(config.common.internalSecret),
    cache,
    logger,
    publicUrl: () => config.publicUrl ?? boundUrl,
    oauthCounter,
    accountCounter,
    draining: () => draining,
  });
  const server: Server = createServer({ keepAliveTimeout: 65_000 }, app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  boundUrl = `http://127.0.0.1:${port}`;
  logger.info('listening', { port, host: config.host });

  return {
    port,
    url: boundUrl,
    app,
    close: async () => {
      draining = true;
      if (config.drainDelayMs > 0) {
        logger.info('draining', { delay_ms: config.drainDelayMs });
        await new Promise((resolve) => setTimeout(resolve, config.drainDelayMs));
      }
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const forced = setTimeout(() => server.closeAllConnections(), drainMs);
      await closed;
      clearTimeout(forced);
      unsubscribe();
      clients.close();
      await oauthCounter.close();
      await accountCounter.close();
      if (ownNotifier) await notifier.close();
    },
  };
}

// Run on its own: with the process's metrics server (the platform serves one for all its parts).
if (require.main === module) runProcess('gateway', startGateway);
