// The two internal transports side by side on one real service server: a call in process must
// behave as the same call over HTTP/2 (the signed caller, metrics and logs, error codes, details
// and masking, headers and trailers, deadlines, cancellation, large messages, streams), and a
// stopped service must be unavailable. Also the setting that picks the transport.
import { randomBytes } from 'node:crypto';
import { Code, createClient, type Client, type ConnectRouter } from '@connectrpc/connect';
import { Health } from '@voice/proto/grpc/health/v1/health';
import { ErrorDetailSchema } from '@voice/proto/voice/common/v1/error';
import { ToolsService } from '@voice/proto/voice/tools/v1/tools';
import { callerOf, callHeaders, CallerSigner, type Caller } from '../src/caller.js';
import { ConfigError } from '../src/config/env.js';
import { startConnectServer, type RunningServer } from '../src/server/connect-server.js';
import { notFound } from '../src/errors.js';
import { ServingStatus } from '../src/server/health.js';
import { InProcessServices } from '../src/internal/in-process-services.js';
import { openInternalChannel, readInternalTransport, type InternalChannel, type InternalTransportKind } from '../src/internal/internal-channel.js';
import { createLogger } from '../src/logger.js';
import { MetricsRegistry } from '../src/metrics/registry.js';
import { connectErrorOf } from './connect-error-of.js';

const secretText = 'disk /var/lib/voice/tools.sqlite is full';

const caller: Caller = {
  workspaceId: '7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6',
  principal: { type: 'service_account', id: 'p-2', name: 'test key' },
  scopes: ['tools:read'],
  requestId: 'req-internal-channel',
};

/** What the handlers saw, for the tests to compare. */
const seen = { abortReasons: [] as unknown[], probes: [] as (string | null)[] };

/** Lets a test hold a call inside its handler until it says so. */
let release: () => void = () => {};
let entered: () => void = () => {};

/** ToolsService.getTool only: the id says what to do. */
function routes(router: ConnectRouter): void {
  router.service(ToolsService, {
    async getTool(request, context) {
      switch (request.id) {
        case 'throw':
          throw new Error(secretText);
        case 'missing':
          throw notFound('tool');
        case 'headers':
          seen.probes.push(context.requestHeader.get('x-probe'));
          context.responseHeader.set('x-answer', 'header value');
          context.responseTrailer.set('x-trailer', 'trailer value');
          return { tool: { id: 'headers' } };
        case 'wait':
          entered();
          await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
          seen.abortReasons.push(context.signal.reason);
          return { tool: { id: 'too late' } };
        case 'hold':
          await new Promise<void>((resolve) => {
            release = resolve;
            entered();
          });
          return { tool: { id: 'held' } };
        default:
          // Echoes the id (large messages) and names the caller's workspace.
          return { tool: { id: request.id, name: callerOf(context).workspaceId } };
      }
    },
  });
}

interface Started {
  server: RunningServer;
  local: InProcessServices;
  registry: MetricsRegistry;
  logLines: string[];
}

async function startService(signer: CallerSigner, local = new InProcessServices()): Promise<Started> {
  const logLines: string[] = [];
  const registry = new MetricsRegistry();
  const server = await startConnectServer({
    name: 'tools',
    host: '127.0.0.1',
    port: 0,
    signer,
    logger: createLogger({ service: 'tools', level: 'debug', write: (line) => logLines.push(line) }),
    routes,
    serviceNames: [ToolsService.typeName],
    registry,
    local,
  });
  return { server, local, registry, logLines };
}

const channelTo = (started: Started, kind: InternalTransportKind, defaultTimeoutMs?: number): InternalChannel =>
  openInternalChannel({ name: 'tools', url: started.server.url, defaultTimeoutMs }, kind === 'in-process' ? started.local : undefined);

const requestsCounted = async (registry: MetricsRegistry, code: string): Promise<number> => {
  const metric = await registry.getSingleMetric('rpc_server_requests_total')?.get();
  return metric?.values.filter((value) => value.labels.code === code).reduce((sum, value) => sum + value.value, 0) ?? 0;
};

// connect-node reports on the console when it cannot answer a client that already left (the
// deadline and cancellation tests over HTTP/2, a cancelled Watch): the library's noise, kept out.
const consoleError = console.error.bind(console);
beforeAll(() => {
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (typeof args[0] === 'string' && /^handler for rpc (GetTool|Watch) of /.test(args[0])) return;
    consoleError(...args);
  });
});
afterAll(() => jest.restoreAllMocks());

describe.each(['in-process', 'http2'] as const)('a call %s', (kind) => {
  const signer = new CallerSigner(randomBytes(32));
  let started: Started;
  let channel: InternalChannel;
  let tools: Client<typeof ToolsService>;
  let health: Client<typeof Health>;

  beforeAll(async () => {
    started = await startService(signer);
    channel = channelTo(started, kind);
    tools = createClient(ToolsService, channel.transport);
    health = createClient(Health, channel.transport);
  });
  afterAll(async () => {
    channel.close();
    await started.server.close();
  });

  test('reaches the handler with the signed caller; the call is counted and logged with its request id', async () => {
    const before = await requestsCounted(started.registry, 'ok');
    started.logLines.length = 0;
    const answer = await tools.getTool({ id: 't1' }, { headers: callHeaders(signer, caller) });
    expect(answer.tool?.name).toBe(caller.workspaceId);
    expect(await requestsCounted(started.registry, 'ok')).toBe(before + 1);
    const rpc = started.logLines.map((line) => JSON.parse(line) as { msg: string; request_id?: string; code?: string }).find((line) => line.msg === 'rpc');
    expect(rpc).toMatchObject({ request_id: caller.requestId, code: 'ok' });
  });

  test('without a signed caller it is Unauthenticated, and counted so', async () => {
    const before = await requestsCounted(started.registry, 'unauthenticated');
    expect((await connectErrorOf(tools.getTool({ id: 't1' }))).code).toBe(Code.Unauthenticated);
    expect(await requestsCounted(started.registry, 'unauthenticated')).toBe(before + 1);
  });

  test('an unexpected error is Internal with its text only in the log; a service error keeps code, message and detail', async () => {
    const internal = await connectErrorOf(tools.getTool({ id: 'throw' }, { headers: callHeaders(signer, caller) }));
    expect(internal.code).toBe(Code.Internal);
    expect(internal.rawMessage).toBe('internal error');
    expect(started.logLines.some((line) => line.includes(secretText))).toBe(true);
    const missing = await connectErrorOf(tools.getTool({ id: 'missing' }, { headers: callHeaders(signer, caller) }));
    expect(missing.code).toBe(Code.NotFound);
    expect(missing.rawMessage).toBe('tool not found');
    expect(missing.findDetails(ErrorDetailSchema).map((detail) => detail.reason)).toEqual(['not_found']);
  });

  test('request headers reach the handler; response headers and trailers reach the caller', async () => {
    let header: Headers | undefined;
    let trailer: Headers | undefined;
    await tools.getTool(
      { id: 'headers' },
      { headers: { ...callHeaders(signer, caller), 'x-probe': 'probe value' }, onHeader: (value) => (header = value), onTrailer: (value) => (trailer = value) },
    );
    expect(seen.probes.at(-1)).toBe('probe value');
    expect(header?.get('x-answer')).toBe('header value');
    expect(trailer?.get('x-trailer')).toBe('trailer value');
  });

  test("a deadline ends the call with DeadlineExceeded, and the handler's signal with it", async () => {
    const error = await connectErrorOf(tools.getTool({ id: 'wait' }, { headers: callHeaders(signer, caller), timeoutMs: 100 }));
    expect(error.code).toBe(Code.DeadlineExceeded);
    // The server's own deadline or the caller's reset, whichever comes first, stops the handler.
    await waitFor(() => seen.abortReasons.length > 0);
    seen.abortReasons.pop();
  });

  test("the channel's default deadline applies to a call that sets none", async () => {
    const bounded = channelTo(started, kind, 100);
    try {
      const error = await connectErrorOf(createClient(ToolsService, bounded.transport).getTool({ id: 'wait' }, { headers: callHeaders(signer, caller) }));
      expect(error.code).toBe(Code.DeadlineExceeded);
      await waitFor(() => seen.abortReasons.length > 0);
      seen.abortReasons.pop();
    } finally {
      bounded.close();
    }
  });

  test("a caller's abort ends the call with Canceled and aborts the handler's signal", async () => {
    const abort = new AbortController();
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    const call = connectErrorOf(tools.getTool({ id: 'wait' }, { headers: callHeaders(signer, caller), signal: abort.signal }));
    await inHandler;
    abort.abort();
    expect((await call).code).toBe(Code.Canceled);
    await waitFor(() => seen.abortReasons.length > 0);
    seen.abortReasons.pop();
  });

  test('a message of 3 MiB goes through both ways', async () => {
    const id = 'x'.repeat(3 * 1024 * 1024);
    const answer = await tools.getTool({ id }, { headers: callHeaders(signer, caller) });
    expect(answer.tool?.id).toBe(id);
  });

  test('health answers without a caller, and Watch streams status changes', async () => {
    expect((await health.check({ service: ToolsService.typeName })).status).toBe(ServingStatus.SERVING);
    const name = `voice.example.v1.${kind === 'http2' ? 'Http2' : 'InProcess'}Watched`;
    const abort = new AbortController();
    const stream = health.watch({ service: name }, { signal: abort.signal })[Symbol.asyncIterator]();
    try {
      expect((await stream.next()).value?.status).toBe(ServingStatus.SERVICE_UNKNOWN);
      started.server.health.set(name, ServingStatus.SERVING);
      expect((await stream.next()).value?.status).toBe(ServingStatus.SERVING);
    } finally {
      abort.abort();
    }
  });
});

describe('in process, a stopped service', () => {
  const signer = new CallerSigner(randomBytes(32));

  test('is Unavailable at once while its calls in flight finish, and close() waits for them', async () => {
    const started = await startService(signer);
    const tools = createClient(ToolsService, channelTo(started, 'in-process').transport);
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    const held = tools.getTool({ id: 'hold' }, { headers: callHeaders(signer, caller) });
    await inHandler;
    let closed = false;
    const closing = started.server.close().then(() => (closed = true));
    const refused = await connectErrorOf(tools.getTool({ id: 't1' }, { headers: callHeaders(signer, caller) }));
    expect(refused.code).toBe(Code.Unavailable);
    expect(refused.rawMessage).toBe('the tools service is not running');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false);
    release();
    expect((await held).tool?.id).toBe('held');
    await closing;
    expect(closed).toBe(true);
  });

  test('is reached again once started again in the same process', async () => {
    const local = new InProcessServices();
    const first = await startService(signer, local);
    const tools = createClient(ToolsService, channelTo(first, 'in-process').transport);
    await first.server.close();
    expect((await connectErrorOf(tools.getTool({ id: 't1' }, { headers: callHeaders(signer, caller) }))).code).toBe(Code.Unavailable);
    const second = await startService(signer, local);
    try {
      expect((await tools.getTool({ id: 't2' }, { headers: callHeaders(signer, caller) })).tool?.id).toBe('t2');
      // The restarted service's own metrics count the call: the new handlers answered it.
      expect(await requestsCounted(second.registry, 'ok')).toBe(1);
    } finally {
      await second.server.close();
    }
  });

  test('one name is registered once: a second server under it is refused', async () => {
    const started = await startService(signer);
    try {
      expect(() => started.local.register('tools', [])).toThrow('service tools is already running in this process');
    } finally {
      await started.server.close();
    }
  });
});

describe('VOICE_INTERNAL_TRANSPORT', () => {
  test('a process running every part calls in process unless told http2', () => {
    expect(readInternalTransport({}, 'every-part')).toBe('in-process');
    expect(readInternalTransport({ VOICE_INTERNAL_TRANSPORT: 'http2' }, 'every-part')).toBe('http2');
    expect(readInternalTransport({ VOICE_INTERNAL_TRANSPORT: 'in-process' }, 'every-part')).toBe('in-process');
  });

  test('a process running one part reaches the others over http2 and refuses in-process, naming the variable', () => {
    expect(readInternalTransport({}, 'one-part')).toBe('http2');
    expect(() => readInternalTransport({ VOICE_INTERNAL_TRANSPORT: 'in-process' }, 'one-part')).toThrow(ConfigError);
    expect(() => readInternalTransport({ VOICE_INTERNAL_TRANSPORT: 'in-process' }, 'one-part')).toThrow(/VOICE_INTERNAL_TRANSPORT is in-process/);
  });

  test('any other value stops the start, naming the variable', () => {
    expect(() => readInternalTransport({ VOICE_INTERNAL_TRANSPORT: 'grpc' }, 'every-part')).toThrow(/VOICE_INTERNAL_TRANSPORT/);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
