// Builds the gateway's express app: request ids, access log and metrics, health, the REST API
// under /api/v1 with its middleware chain, and the error envelope for every failure.
import express, { type Express, type Request } from 'express';
import type { CallerSigner } from '@voice/runtime/caller';
import type { Logger } from '@voice/runtime/logger';
import type { MetricsRegistry } from '@voice/runtime/metrics';
import type { CredentialCache } from './auth/credential-cache.js';
import type { ServiceClients } from './clients.js';
import type { WindowCounter } from '@voice/runtime/counters';
import type { GatewayConfig } from './config.js';
import { errorHandler } from './errors/error-handler.js';
import { HttpError } from './errors/http-error.js';
import { registerHealthRoutes } from './health.js';
import { oauthPaths, protectedResourceMetadataPaths } from './oauth/metadata.js';
import { resourcesOf } from './oauth/resources.js';
import { registerOAuthRoutes } from './oauth/router.js';
import { accessLog } from './middleware/access-log.js';
import { authenticate } from './middleware/authenticate.js';
import { httpMetrics } from './middleware/http-metrics.js';
import { rateLimit } from './middleware/rate-limit.js';
import { requestId } from './middleware/request-id.js';
import { routeTemplate } from './middleware/route-template.js';
import { tenantHost } from './middleware/tenant-host.js';
import { currentTenant } from './tenants/tenant-context.js';
import { TenantDirectory } from './tenants/tenant-directory.js';
import { registerApiKeyRoutes } from './rest/api-keys.js';
import { registerMemberRoutes } from './rest/members.js';
import { registerMeRoutes } from './rest/me.js';
import { RestRouter } from './rest/router.js';
import { registerBillingRoutes } from './rest/billing.js';
import { registerCustomDomainRoutes } from './rest/custom-domain.js';
import { registerPlatformUserRoutes } from './rest/platform-users.js';
import { registerInvitationRoutes } from './invitations/router.js';
import { registerSenderConfirmationRoutes } from './email-senders/confirmation-router.js';
import { cors } from './cors/cors.js';
import { registerMcpEndpoint } from './mcp/endpoint.js';
import { entryScopesOf } from './mcp/scope-challenge.js';
import { registerDocsRoutes } from './docs/page.js';
import { keepRestRouter, registerOpenApiRoute } from './openapi/route.js';
import { registerSipTrunkRoutes } from './rest/sip-trunks.js';
import { registerCallerIdRoutes } from './rest/caller-ids.js';
import { registerSandboxRoutes } from './rest/sandbox.js';
import { registerTelephonyRoutes } from './rest/telephony.js';
import { registerToolRoutes } from './rest/tools.js';
import { registerWebhookRoutes } from './rest/webhooks.js';
import { registerEmailSenderRoutes } from './rest/email-senders.js';
import { registerHistoryRoutes } from './rest/history.js';
import { registerAssistantRoutes } from './rest/assistants.js';
import { registerSettingsRoutes } from './rest/settings.js';
import { registerKnowledgeRoutes } from './rest/knowledge.js';
import { registerCallRoutes } from './rest/calls.js';
import { registerCampaignRoutes } from './rest/campaigns.js';
import { registerLeadRoutes } from './rest/leads.js';
import { registerSegmentRoutes } from './rest/segments.js';
import { registerCallbackRoutes } from './rest/callbacks.js';
import type { RecordingDownloadUrls } from './recordings/download-urls.js';
import { recordingDownloadUrlsOf, registerRecordingDownloads } from './recordings/download-route.js';
import { registerCarrierCallbacks } from './webhooks/carrier-callbacks.js';
import { registerCarrierVoiceWebhooks } from './webhooks/carrier-voice.js';

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
  /** Where the HTTP metrics go; the process's registry (served on the metrics port, never here) by default. */
  metrics?: MetricsRegistry;
  /** True once the gateway drains (SIGTERM): /readyz answers 503. Never, by default. */
  draining?: () => boolean;
}

/** The public address of this request: its tenant's domain, or the platform's own. */
const tenantAware = (deps: GatewayDeps): GatewayDeps => ({ ...deps, publicUrl: () => currentTenant()?.publicUrl ?? deps.publicUrl() });

/** Authentication (naming the resource's metadata in its 401 challenge) and the account's rate limit. */
const authenticated = (deps: GatewayDeps, resource: keyof typeof protectedResourceMetadataPaths, challengeScope?: (req: Request) => string) => [
  authenticate({
    challengeScope,
    clients: deps.clients,
    signer: deps.signer,
    cache: deps.cache,
    get resourceMetadataUrl() {
      return `${deps.publicUrl()}${protectedResourceMetadataPaths[resource]}`;
    },
    served: resource,
    resources: () => resourcesOf(deps.publicUrl()),
  }),
  rateLimit(deps.config.rateLimit, deps.accountCounter),
];

/** Every REST operation; `recordingUrls` signs the recording addresses the download route verifies. */
export function buildRestRouter(deps: GatewayDeps, recordingUrls: RecordingDownloadUrls): RestRouter {
  const rest = new RestRouter(authenticated(deps, 'api'), deps.signer);
  registerMeRoutes(rest);
  registerToolRoutes(rest, deps);
  registerAssistantRoutes(rest, deps);
  registerSettingsRoutes(rest, deps);
  registerKnowledgeRoutes(rest, deps);
  registerApiKeyRoutes(rest, deps);
  registerMemberRoutes(rest, deps);
  registerCallRoutes(rest, { ...deps, recordingUrls });
  registerTelephonyRoutes(rest, deps);
  registerSipTrunkRoutes(rest, deps);
  registerCallerIdRoutes(rest, deps);
  registerSandboxRoutes(rest, deps);
  registerBillingRoutes(rest, deps);
  registerCustomDomainRoutes(rest, deps);
  registerPlatformUserRoutes(rest, deps);
  registerWebhookRoutes(rest, deps);
  registerCampaignRoutes(rest, deps);
  registerLeadRoutes(rest, deps);
  registerSegmentRoutes(rest, deps);
  registerCallbackRoutes(rest, deps);
  registerEmailSenderRoutes(rest, deps);
  registerHistoryRoutes(rest, deps);
  return rest;
}

export function buildGatewayApp(platformDeps: GatewayDeps): Express {
  const deps = tenantAware(platformDeps);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // req.ip (proxies/client-address.ts) follows X-Forwarded-For through these proxies only; from
  // them express also takes X-Forwarded-Host (req.hostname, the tenant's domain) and -Proto.
  const trusted = deps.config.trustedProxies;
  app.set('trust proxy', trusted.length > 0 ? trusted : false);
  app.use(requestId());
  app.use(routeTemplate());
  app.use(accessLog(deps.logger));
  app.use(httpMetrics(deps.metrics));
  // Before the tenant lookup: probes never wait for a custom domain's services.
  registerHealthRoutes(app, deps.clients, deps.draining ?? (() => false));
  const tenants = new TenantDirectory(deps.clients, deps.signer, deps.logger);
  // The platform's own host is fixed once the gateway listens; parsed once, not per request.
  let platformHost: string | undefined;
  app.use(tenantHost(tenants, () => (platformHost ??= new URL(platformDeps.publicUrl()).hostname.toLowerCase())));
  /** The name on pages and in the API's description: the tenant's on its own domain. */
  const platformName = () => currentTenant()?.name ?? deps.config.platformName;
  // Before any authentication: a browser's preflight carries no credential.
  app.use('/.well-known', cors(() => 'any'));
  app.use(['/api/v1', oauthPaths.token, oauthPaths.register, oauthPaths.revoke], cors(() => deps.config.corsOrigins));
  registerCarrierCallbacks(app, { clients: deps.clients, signer: deps.signer, publicUrl: deps.publicUrl });
  registerCarrierVoiceWebhooks(app, { clients: deps.clients, signer: deps.signer, publicUrl: deps.publicUrl });
  const recordingUrls = recordingDownloadUrlsOf(deps.config);
  registerRecordingDownloads(app, { config: deps.config, urls: recordingUrls, signer: deps.signer, logger: deps.logger });
  const rest = buildRestRouter(deps, recordingUrls);
  registerMcpEndpoint(app, {
    authenticated: authenticated(deps, 'mcp', (req) => entryScopesOf(rest.operations(), req)),
    operations: () => rest.operations(),
    signer: deps.signer,
    publicUrl: deps.publicUrl,
    resourceMetadataUrl: () => `${deps.publicUrl()}${protectedResourceMetadataPaths.mcp}`,
    logger: deps.logger,
  });
  // The API's description and its reference page are public: registered before the authenticated routes.
  registerOpenApiRoute(app, rest, { publicUrl: deps.publicUrl, platformName });
  registerDocsRoutes(app, { platformName });
  keepRestRouter(app, rest);
  app.use('/api/v1', rest.finish());
  // The page routers are mounted at the root, and express's router leaves one that matched nothing
  // through setImmediate: after the API and MCP, whose requests (nearly all) skip three such hops.
  registerOAuthRoutes(app, {
    clients: deps.clients,
    signer: deps.signer,
    secret: deps.config.common.internalSecret,
    counter: deps.oauthCounter,
    limits: deps.config.oauthRateLimits,
    publicUrl: deps.publicUrl,
    platformName,
  });
  registerInvitationRoutes(app, { clients: deps.clients, signer: deps.signer, platformName, logger: deps.logger });
  registerSenderConfirmationRoutes(app, { clients: deps.clients, signer: deps.signer, platformName, logger: deps.logger });
  app.use((req, _res, next) => next(new HttpError('not_found', `no route for ${req.method} ${req.path}`)));
  app.use(errorHandler(deps.logger));
  return app;
}
