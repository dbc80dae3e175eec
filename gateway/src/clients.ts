// Connect clients for the services behind the gateway: binary Connect protocol over one
// HTTP/2 session per service.
import { createClient, type Client, type Transport } from '@connectrpc/connect';
import { createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { Health } from '@voice/proto/grpc/health/v1/health';
import { IdentityService } from '@voice/proto/voice/identity/v1/identity';
import { ToolsService } from '@voice/proto/voice/tools/v1/tools';
import type { GatewayConfig } from './config.js';

export interface ServiceClients {
  identity: Client<typeof IdentityService>;
  tools: Client<typeof ToolsService>;
  /** Health clients of every service /readyz checks, by service name. */
  health: Record<string, Client<typeof Health>>;
  /** Closes every HTTP/2 session (shutdown). */
  close(): void;
}

export function createServiceClients(services: GatewayConfig['services']): ServiceClients {
  const sessions: Http2SessionManager[] = [];
  const transportFor = (baseUrl: string): Transport => {
    // Pings keep a long-lived session honest across service restarts.
    const sessionManager = new Http2SessionManager(baseUrl, { pingIntervalMs: 15_000, idleConnectionTimeoutMs: 60_000 });
    sessions.push(sessionManager);
    return createConnectTransport({ baseUrl, httpVersion: '2', useBinaryFormat: true, defaultTimeoutMs: 30_000, sessionManager });
  };
  const transports = Object.fromEntries(Object.entries(services).map(([name, url]) => [name, transportFor(url)]));
  return {
    identity: createClient(IdentityService, transports.identity!),
    tools: createClient(ToolsService, transports.tools!),
    health: Object.fromEntries(Object.entries(transports).map(([name, transport]) => [name, createClient(Health, transport)])),
    close: () => sessions.forEach((session) => session.abort()),
  };
}
