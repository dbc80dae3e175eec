// Connect clients for the services behind the gateway: binary Connect protocol over one
// HTTP/2 session per service.
import { createClient, type Client, type Transport } from '@connectrpc/connect';
import { createConnectTransport, type Http2SessionManager } from '@connectrpc/connect-node';
import { Health } from '@voice/proto/grpc/health/v1/health';
import { BillingService } from '@voice/proto/voice/billing/v1/billing';
import { IdentityService } from '@voice/proto/voice/identity/v1/identity';
import { CustomDomainService } from '@voice/proto/voice/platform/v1/custom_domains';
import { PlatformUserService } from '@voice/proto/voice/platform/v1/platform_users';
import { TelephonyService } from '@voice/proto/voice/telephony/v1/telephony';
import { ToolsService } from '@voice/proto/voice/tools/v1/tools';
import { internalSessionManager } from '@voice/runtime';
import type { GatewayConfig } from './config.js';

export interface ServiceClients {
  identity: Client<typeof IdentityService>;
  tools: Client<typeof ToolsService>;
  telephony: Client<typeof TelephonyService>;
  billing: Client<typeof BillingService>;
  customDomains: Client<typeof CustomDomainService>;
  platformUsers: Client<typeof PlatformUserService>;
  /** Health clients of every service /readyz and /health/dependencies report on, by service name. */
  health: Record<string, Client<typeof Health>>;
  /** Closes every HTTP/2 session (shutdown). */
  close(): void;
}

export function createServiceClients(services: GatewayConfig['services']): ServiceClients {
  const sessions: Http2SessionManager[] = [];
  const transportFor = (baseUrl: string): Transport => {
    const sessionManager = internalSessionManager(baseUrl);
    sessions.push(sessionManager);
    return createConnectTransport({ baseUrl, httpVersion: '2', useBinaryFormat: true, defaultTimeoutMs: 30_000, sessionManager });
  };
  const transports = Object.fromEntries(Object.entries(services).map(([name, url]) => [name, transportFor(url)]));
  return {
    identity: createClient(IdentityService, transports.identity!),
    tools: createClient(ToolsService, transports.tools!),
    telephony: createClient(TelephonyService, transports.telephony!),
    billing: createClient(BillingService, transports.billing!),
    customDomains: createClient(CustomDomainService, transports.platformUsers!),
    platformUsers: createClient(PlatformUserService, transports.platformUsers!),
    health: Object.fromEntries(Object.entries(transports).map(([name, transport]) => [name, createClient(Health, transport)])),
    close: () => sessions.forEach((session) => session.abort()),
  };
}
