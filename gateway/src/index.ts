export { startGateway, type StartedGateway, type GatewayOptions } from './main.js';
export { readGatewayConfig, type GatewayConfig } from './config.js';
export { buildGatewayApp, buildRestRouter, type GatewayDeps } from './app.js';
export { requireFeature } from './middleware/require-feature.js';
export { openApiDocument, documentVersion } from './openapi/document.js';
export { apiOperations, apiRestRouter } from './openapi/operations.js';
export { openApiPath, restRouterOf } from './openapi/route.js';
export { openWindowCounter, rateLimitBuckets } from '@voice/runtime/counters';
