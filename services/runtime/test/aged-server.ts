// A real startConnectServer on loopback for the connection-age tests: ToolsService.GetTool takes
// as long as its id asks ("wait:1500", or "hang" until the call ends), and every TCP connection
// the server accepts is counted (Node's net.server.socket diagnostics channel).
import { randomBytes } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConnectError, type ConnectRouter } from '@connectrpc/connect';
import { ToolsService } from '@voice/proto/voice/tools/v1/tools';
import { callHeaders, CallerSigner, type Caller } from '../src/caller.js';
import { startConnectServer, type ConnectionAge, type RunningServer } from '../src/server/connect-server.js';
import { createLogger } from '../src/logger.js';

const caller: Caller = {
  workspaceId: '5b0e9f3a-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
  principal: { type: 'service_account', id: 'p-1', name: 'test key' },
  scopes: [],
  requestId: 'req-connection-age',
};

export interface AgedServer {
  server: RunningServer;
  /** Headers of a signed caller, for GetTool. */
  headers(): Record<string, string>;
  /** TCP connections the server has accepted so far. */
  connections(): number;
  /** GetTool calls that reached the handler, by id. */
  handled: string[];
  logLines: string[];
  close(): Promise<void>;
}

const serverSockets = diagnostics.channel('net.server.socket');

export async function startAgedServer(connectionAge: ConnectionAge | undefined): Promise<AgedServer> {
  const signer = new CallerSigner(randomBytes(32));
  const accepted: number[] = [];
  const onSocket = (message: unknown) => accepted.push((message as { socket: Socket }).socket.localPort ?? 0);
  serverSockets.subscribe(onSocket);
  const handled: string[] = [];
  const logLines: string[] = [];
  const routes = (router: ConnectRouter) =>
    router.service(ToolsService, {
      async getTool(request, context) {
        handled.push(request.id);
        const ms = request.id === 'hang' ? 3_600_000 : Number(request.id.replace('wait:', ''));
        try {
          await sleep(ms, undefined, { signal: context.signal });
        } catch (error) {
          throw ConnectError.from(error);
        }
        return { tool: { id: request.id } };
      },
    });
  const server = await startConnectServer({
    name: 'aged',
    host: '127.0.0.1',
    port: 0,
    signer,
    logger: createLogger({ service: 'aged', level: 'warn', write: (line) => logLines.push(line) }),
    routes,
    serviceNames: [],
    connectionAge,
  });
  return {
    server,
    headers: () => callHeaders(signer, caller),
    connections: () => accepted.filter((port) => port === server.port).length,
    handled,
    logLines,
    close: async () => {
      await server.close();
      serverSockets.unsubscribe(onSocket);
    },
  };
}
