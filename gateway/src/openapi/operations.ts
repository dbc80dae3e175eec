// The operations of /api/v1 without a running gateway: the REST router built with dependencies
// that are never called, for tools that only read the route table (the OpenAPI lint in CI).
import { CallerSigner } from '@voice/runtime/caller';
import { createLogger } from '@voice/runtime/logger';
import { buildRestRouter, type GatewayDeps } from '../app.js';
import { CredentialCache } from '../auth/credential-cache.js';
import type { ServiceClients } from '../clients.js';
import { defaultRecordingUrlTtlSeconds, type GatewayConfig } from '../config.js';
import { MemoryWindowCounter } from '@voice/runtime/counters';
import { RecordingDownloadUrls } from '../recordings/download-urls.js';
import type { Operation } from '../rest/operation.js';
import type { RestRouter } from '../rest/router.js';

/** Service clients whose every call fails: registering routes reads them, serving would call them. */
const unreachableClients = new Proxy({} as ServiceClients, {
  get: (_clients, service) =>
    new Proxy({}, { get: (_client, method) => () => Promise.reject(new Error(`${String(service)}.${String(method)} called while only reading the route table`)) }),
});

/** The REST router exactly as the gateway builds it, for its route table and operations. */
export function apiRestRouter(publicUrl = 'http://127.0.0.1:8080'): RestRouter {
  const deps: GatewayDeps = {
    config: { rateLimit: { perPlan: { starter: 1 }, windowSeconds: 60 }, platformName: 'Voice platform' } as Partial<GatewayConfig> as GatewayConfig,
    clients: unreachableClients,
    signer: new CallerSigner(Buffer.alloc(32)),
    cache: new CredentialCache(),
    logger: createLogger({ service: 'openapi', level: 'silent' }),
    publicUrl: () => publicUrl,
    oauthCounter: new MemoryWindowCounter(60_000),
    accountCounter: new MemoryWindowCounter(60_000),
  };
  return buildRestRouter(deps, new RecordingDownloadUrls(Buffer.alloc(32), defaultRecordingUrlTtlSeconds));
}

export const apiOperations = (): readonly Operation<any, any>[] => apiRestRouter().operations();
