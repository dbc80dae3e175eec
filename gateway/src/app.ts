// Builds the gateway's express app: request ids, health, the REST API under /api/v1 with
// its middleware chain, and the error envelope for every failure.
import express, { type Express } from 'express';
import type { CallerSigner, Logger } from '@voice/runtime';
import type { CredentialCache } from './auth/credential-cache.js';
import type { ServiceClients } from './clients.js';
import type { WindowCounter } from './counters/window-counter.js';
import type { GatewayConfig } from './config.js';
import { errorHandler } from './errors/error-handler.js';
import { HttpError } from './errors/http-error.js';
import { registerHealthRoutes } from './health.js';
import { protectedResourceMetadataPaths } from './oauth/metadata.js';
import { registerOAuthRoutes } from './oauth/router.js';
import { accessLog } from './middleware/access-log.js';
import { authenticate } from './middleware/authenticate.js';
import { rateLimit } from './middleware/rate-limit.js';
import { requestId } from './middleware/request-id.js';
import { registerApiKeyRoutes } from './rest/api-keys.js';
import { registerMemberRoutes } from './rest/members.js';
import { registerMeRoutes } from './rest/me.js';
import { RestRouter } from './rest/router.js';
import { registerToolRoutes } from './rest/tools.js';

export interface GatewayDeps {
  config: GatewayConfig;
  clients: ServiceClients;
  signer: CallerSigner;
  cache: CredentialCache;
  logger: Logger;
  /** The public base address (VOICE_PUBLIC_URL, or derived from the bound port). */
  publicUrl: () => string;
  /** Counts OAuth requests per client address (shared between replicas with NATS). */
  oauthCounter: WindowCounter;
  /** Counts API requests per account for the fair-use limit (shared between replicas with NATS). */
  accountCounter: WindowCounter;
}

export function buildRestRouter(deps: GatewayDeps): RestRouter {
  const rest = new RestRouter([
    authenticate({
      clients: deps.clients,
      signer: deps.signer,
      cache: deps.cache,
      get resourceMetadataUrl() {
        return `${deps.publicUrl()}${protectedResourceMetadataPaths.api}`;
      },
    }),
    rateLimit(deps.config.rateLimit, deps.accountCounter),
  ]);
  registerMeRoutes(rest);
  registerToolRoutes(rest, deps);
  registerApiKeyRoutes(rest, deps);
  registerMemberRoutes(rest, deps);
  return rest;
}

export function buildGatewayApp(deps: GatewayDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestId());
  app.use(accessLog(deps.logger));
  registerHealthRoutes(app, deps.clients);
  registerOAuthRoutes(app, {
    clients: deps.clients,
    signer: deps.signer,
    secret: deps.config.common.internalSecret,
    counter: deps.oauthCounter,
    limits: deps.config.oauthRateLimits,
    publicUrl: deps.publicUrl,
    platformName: deps.config.platformName,
  });
  app.use('/api/v1', buildRestRouter(deps).finish());
  app.use((req, _res, next) => next(new HttpError('not_found', `no route for ${req.method} ${req.path}`)));
  app.use(errorHandler(deps.logger));
  return app;
}
