// The shared HTTP/2 server on a real port with a real Connect client: health, the signed-caller
// check, the masking of unexpected errors, the Watch stream and a shutdown that does not hang.
import { randomBytes } from 'node:crypto';
import { Code, createClient, type Client, type ConnectRouter } from '@connectrpc/connect';
import { createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { Health } from '@voice/proto/grpc/health/v1/health';
import { ErrorDetailSchema } from '@voice/proto/voice/common/v1/error';
import { ToolsService } from '@voice/proto/voice/tools/v1/tools';
import { callerHeader, callerOf, callHeaders, CallerSigner, type Caller } from '../src/caller.js';
import { startConnectServer, type RunningServer } from '../src/server/connect-server.js';
import { notFound } from '../src/errors.js';
import { ServingStatus } from '../src/server/health.js';
import { createLogger } from '../src/logger.js';
import { connectErrorOf } from './connect-error-of.js';

const secretText = 'disk /var/lib/voice/identity.sqlite is full';

const caller: Caller = {
  workspaceId: '5b0e9f3a-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
  principal: { type: 'service_account', id: 'p-1', name: 'test key' },
  scopes: ['calls:read'],
  requestId: 'req-connect-server',
};

/** ToolsService with only getTool: it answers with the caller's workspace id as the tool name. */
function routes(router: ConnectRouter): void {
  router.service(ToolsService, {
    getTool(request, context) {
      if (request.id === 'throw') throw new Error(secretText);
      if (request.id === 'missing') throw notFound('tool');
      return { tool: { id: request.id, name: callerOf(context).workspaceId } };
    },
  });
}

interface Started {
  server: RunningServer;
  sessions: Http2SessionManager;
  health: Client<typeof Health>;
  tools: Client<typeof ToolsService>;
  logLines: string[];
}

async function start(signer: CallerSigner, serviceNames: string[]): Promise<Started> {
  const logLines: string[] = [];
  const server = await startConnectServer({
    name: 'test',
    host: '127.0.0.1',
    port: 0,
    signer,
    logger: createLogger({ service: 'test', level: 'error', write: (line) => logLines.push(line) }),
    routes,
    serviceNames,
  });
  const sessions = new Http2SessionManager(server.url);
  const transport = createConnectTransport({ baseUrl: server.url, httpVersion: '2', sessionManager: sessions });
  return { server, sessions, health: createClient(Health, transport), tools: createClient(ToolsService, transport), logLines };
}

// connect-node reports on the console when it cannot end a stream the client already cancelled
// (every cancelled Watch); that is the library's own noise, kept out of the test output.
const cancelledWatchNoise = 'handler for rpc Watch of grpc.health.v1.Health failed';
const consoleError = console.error.bind(console);
beforeAll(() => {
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith(cancelledWatchNoise)) return;
    consoleError(...args);
  });
});
afterAll(() => jest.restoreAllMocks());

describe('startConnectServer', () => {
  const signer = new CallerSigner(randomBytes(32));
  let started: Started;

  beforeAll(async () => {
    started = await start(signer, []);
  });
  afterAll(async () => {
    await started.server.close();
    started.sessions.abort();
  });

  test('listens on the port it reports, on the requested host', () => {
    expect(started.server.port).toBeGreaterThan(0);
    expect(started.server.url).toBe(`http://127.0.0.1:${started.server.port}`);
  });

  test('health: the whole server is SERVING, without any caller header', async () => {
    expect((await started.health.check({ service: '' })).status).toBe(ServingStatus.SERVING);
  });

  test('health: a service that is not registered is NotFound', async () => {
    const error = await connectErrorOf(started.health.check({ service: 'voice.unknown.v1.NoService' }));
    expect(error.code).toBe(Code.NotFound);
    // serviceNames was empty, so even a routed service is not reported.
    expect((await connectErrorOf(started.health.check({ service: ToolsService.typeName }))).code).toBe(Code.NotFound);
  });

  test('health: list reports every status', async () => {
    const { statuses } = await started.health.list({});
    expect(Object.keys(statuses)).toEqual(['']);
    expect(statuses['']?.status).toBe(ServingStatus.SERVING);
  });

  test('a call without the caller header is Unauthenticated', async () => {
    const error = await connectErrorOf(started.tools.getTool({ id: 't1' }));
    expect(error.code).toBe(Code.Unauthenticated);
  });

  test('a caller signed with another secret is Unauthenticated', async () => {
    const other = new CallerSigner(randomBytes(32));
    const error = await connectErrorOf(started.tools.getTool({ id: 't1' }, { headers: callHeaders(other, caller) }));
    expect(error.code).toBe(Code.Unauthenticated);
  });

  test('an expired caller is Unauthenticated', async () => {
    const old = signer.sign(caller, Date.now() - 10 * 60_000);
    const error = await connectErrorOf(started.tools.getTool({ id: 't1' }, { headers: { [callerHeader]: old } }));
    expect(error.code).toBe(Code.Unauthenticated);
  });

  test('a validly signed caller reaches the handler through the context', async () => {
    const answer = await started.tools.getTool({ id: 't1' }, { headers: callHeaders(signer, caller) });
    expect(answer.tool?.id).toBe('t1');
    expect(answer.tool?.name).toBe(caller.workspaceId);
  });

  test('an unexpected error is Internal for the client, with its text only in the log', async () => {
    started.logLines.length = 0;
    const error = await connectErrorOf(started.tools.getTool({ id: 'throw' }, { headers: callHeaders(signer, caller) }));
    expect(error.code).toBe(Code.Internal);
    expect(error.message).not.toContain('disk');
    expect(error.message).not.toContain('/var/lib');
    expect(error.rawMessage).toBe('internal error');
    expect(started.logLines).toHaveLength(1);
    const line = JSON.parse(started.logLines[0]!) as { msg: string; request_id: string; method: string; error: { message: string } };
    expect(line.msg).toBe('call failed');
    expect(line.request_id).toBe(caller.requestId);
    expect(line.method).toBe('voice.tools.v1.ToolsService/GetTool');
    expect(line.error.message).toBe(secretText);
  });

  test('a service error keeps its code, message and detail, and is not logged', async () => {
    started.logLines.length = 0;
    const error = await connectErrorOf(started.tools.getTool({ id: 'missing' }, { headers: callHeaders(signer, caller) }));
    expect(error.code).toBe(Code.NotFound);
    expect(error.rawMessage).toBe('tool not found');
    expect(error.findDetails(ErrorDetailSchema).map((detail) => detail.reason)).toEqual(['not_found']);
    expect(started.logLines).toEqual([]);
  });

  test('a method the routes did not implement is Unimplemented', async () => {
    const error = await connectErrorOf(started.tools.deleteTool({ id: 't1' }, { headers: callHeaders(signer, caller) }));
    expect(error.code).toBe(Code.Unimplemented);
  });

  test('Watch follows health.set, starting with SERVICE_UNKNOWN for an unknown service', async () => {
    const name = 'voice.example.v1.LateService';
    const abort = new AbortController();
    const stream = started.health.watch({ service: name }, { signal: abort.signal })[Symbol.asyncIterator]();
    try {
      expect((await stream.next()).value?.status).toBe(ServingStatus.SERVICE_UNKNOWN);
      started.server.health.set(name, ServingStatus.SERVING);
      expect((await stream.next()).value?.status).toBe(ServingStatus.SERVING);
      // Setting the same status again sends nothing; the next change does.
      started.server.health.set(name, ServingStatus.SERVING);
      started.server.health.set(name, ServingStatus.NOT_SERVING);
      expect((await stream.next()).value?.status).toBe(ServingStatus.NOT_SERVING);
    } finally {
      abort.abort();
    }
  });
});

describe('RunningServer.close', () => {
  const signer = new CallerSigner(randomBytes(32));

  test('Watch sees NOT_SERVING once close() starts, and close() resolves when the stream ends', async () => {
    const started = await start(signer, [ToolsService.typeName]);
    try {
      expect((await started.health.check({ service: ToolsService.typeName })).status).toBe(ServingStatus.SERVING);
      const abort = new AbortController();
      const stream = started.health.watch({ service: ToolsService.typeName }, { signal: abort.signal })[Symbol.asyncIterator]();
      expect((await stream.next()).value?.status).toBe(ServingStatus.SERVING);
      const closing = started.server.close();
      expect((await stream.next()).value?.status).toBe(ServingStatus.NOT_SERVING);
      expect(started.server.health.get('')).toBe(ServingStatus.NOT_SERVING);
      const stoppedAt = Date.now();
      abort.abort();
      await closing;
      // Well under the 5 s after which close() destroys sessions by force.
      expect(Date.now() - stoppedAt).toBeLessThan(2000);
    } finally {
      started.sessions.abort();
    }
  });

  test('a Watch the client never cancels ends after NOT_SERVING, so close() does not wait for the client', async () => {
    const started = await start(signer, []);
    try {
      const stream = started.health.watch({ service: '' })[Symbol.asyncIterator]();
      expect((await stream.next()).value?.status).toBe(ServingStatus.SERVING);
      const closing = started.server.close();
      expect((await stream.next()).value?.status).toBe(ServingStatus.NOT_SERVING);
      expect((await stream.next()).done).toBe(true);
      await closing;
    } finally {
      started.sessions.abort();
    }
  });

  test('close() resolves while the client still holds an idle HTTP/2 session', async () => {
    const started = await start(signer, []);
    try {
      expect((await started.health.check({ service: '' })).status).toBe(ServingStatus.SERVING);
      expect(['open', 'idle', 'verifying']).toContain(started.sessions.state());
      const startedAt = Date.now();
      await started.server.close();
      expect(Date.now() - startedAt).toBeLessThan(2000);
      // The server is gone: a new call cannot get through.
      const retry = new Http2SessionManager(started.server.url);
      try {
        const client = createClient(Health, createConnectTransport({ baseUrl: started.server.url, httpVersion: '2', sessionManager: retry }));
        // connect-node reports a refused connection through an Http2SessionManager as Internal.
        expect((await connectErrorOf(client.check({ service: '' }))).message).toContain('ECONNREFUSED');
      } finally {
        retry.abort();
      }
    } finally {
      started.sessions.abort();
    }
  });
});
