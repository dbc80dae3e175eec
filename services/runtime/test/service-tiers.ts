// The two service test tiers every service shares: the service's routes behind an in-memory Connect
// transport (tier 2), and the same routes on a real server on port 0 over HTTP/2 (tier 3). Both
// check signed callers and mask unexpected errors exactly as production does.
import { randomBytes } from 'node:crypto';
import type { DescService } from '@bufbuild/protobuf';
import { ConnectError, createClient, createRouterTransport, type Client, type ConnectRouter } from '@connectrpc/connect';
import { createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { callHeaders, CallerSigner, type CallerIdentity } from '../src/caller.js';
import { errorDetailOf } from '../src/errors.js';
import { createLogger, type Logger } from '../src/logger.js';
import { callerInterceptor, startConnectServer, type RunningServer } from '../src/server/index.js';

export interface TierOptions {
  /** The shared internal secret's signer; a fresh random one unless the test signs callers itself. */
  signer?: CallerSigner;
  /** Where the service logs (masked errors among them); silent unless given. */
  logger?: Logger;
}

export interface TierClient<Service extends DescService> {
  client: Client<Service>;
  signer: CallerSigner;
  /** Call options carrying `caller`, signed as the gateway signs it. */
  as(caller: CallerIdentity): { headers: Record<string, string> };
  /** A service account of the workspace without scope restrictions. */
  inWorkspace(workspaceId: string): { headers: Record<string, string> };
  /** Another part of the platform, outside any workspace (the gateway authenticating a credential). */
  internal: { headers: Record<string, string> };
  close(): Promise<void>;
}

export interface ServerTierClient<Service extends DescService> extends TierClient<Service> {
  server: RunningServer;
}

function tierClient<Service extends DescService>(client: Client<Service>, signer: CallerSigner, close: () => Promise<void>): TierClient<Service> {
  const as = (caller: CallerIdentity) => ({ headers: callHeaders(signer, { ...caller, requestId: 'test' }) });
  return {
    client,
    signer,
    as,
    inWorkspace: (workspaceId) => as({ workspaceId, principal: { type: 'service_account', id: 'test-key', name: 'test key' }, scopes: null }),
    internal: as({ workspaceId: '', principal: { type: 'internal', id: 'gateway', name: 'gateway' }, scopes: null }),
    close,
  };
}

const silent = () => createLogger({ service: 'test', level: 'silent' });

/** Tier 2: a client of the service's routes over createRouterTransport, behind the signed-caller check. */
export function routerClient<Service extends DescService>(
  service: Service,
  register: (router: ConnectRouter) => void,
  options: TierOptions = {},
): TierClient<Service> {
  const signer = options.signer ?? new CallerSigner(randomBytes(32));
  const transport = createRouterTransport(register, { router: { interceptors: [callerInterceptor(signer, options.logger ?? silent())] } });
  return tierClient(createClient(service, transport), signer, async () => {});
}

/** Tier 3: the service's routes on the real server (port 0, loopback) and a real HTTP/2 client; close() ends both. */
export async function serverClient<Service extends DescService>(
  service: Service,
  register: (router: ConnectRouter) => void,
  options: TierOptions = {},
): Promise<ServerTierClient<Service>> {
  const signer = options.signer ?? new CallerSigner(randomBytes(32));
  const server = await startConnectServer({
    name: 'test',
    host: '127.0.0.1',
    port: 0,
    signer,
    logger: options.logger ?? silent(),
    routes: register,
    serviceNames: [service.typeName],
    connectionAge: 'off',
  });
  const sessions = new Http2SessionManager(server.url);
  const client = createClient(service, createConnectTransport({ baseUrl: server.url, httpVersion: '2', sessionManager: sessions }));
  const close = async () => {
    sessions.abort();
    await server.close();
  };
  return { ...tierClient(client, signer, close), server };
}

/** How a call that must fail failed: its Connect code, message and the detail the service attached. */
export async function failure(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    const connect = ConnectError.from(error);
    return { code: connect.code, message: connect.rawMessage, ...errorDetailOf(connect) };
  }
  throw new Error('the call succeeded');
}
