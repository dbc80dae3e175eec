// listMcpServerTools against real MCP servers built with the SDK, listening on 127.0.0.1 only.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { mcpConfigSchema } from '@voice/contracts/tools';
import { egressPolicy } from '@voice/runtime/egress';
import { listMcpServerTools } from '../src/testing/mcp-runner.js';
import { EgressRefused } from '@voice/runtime/egress';
import type { TestOutcome } from '../src/testing/outcome.js';

interface McpLoopback {
  url: string;
  /** Method of every HTTP request that reached the server, authorised or not. */
  methods: string[];
  closedSessions: string[];
  openSessions(): number;
  close(): Promise<void>;
}

type Gate = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

function orderTools(): McpServer {
  const server = new McpServer({ name: 'orders', version: '1.0.0' });
  const noop = async () => ({ content: [] });
  server.registerTool('lookup_order', { description: 'Finds an order by id', inputSchema: { order_id: z.string() } }, noop);
  server.registerTool('cancel_order', { description: 'Cancels an order', inputSchema: { order_id: z.string(), reason: z.string().optional() } }, noop);
  server.registerTool('delete_everything', { inputSchema: {} }, noop);
  return server;
}

/** A stateful Streamable HTTP server: one SDK server per session, as the SDK's examples do it. */
async function startMcpServer(build: () => McpServer | Server, gate: Gate = () => true): Promise<McpLoopback> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const methods: string[] = [];
  const closedSessions: string[] = [];
  const httpServer = http.createServer((req, res) => {
    methods.push(req.method ?? '');
    if (!gate(req, res)) return;
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) {
      void existing.handleRequest(req, res);
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
      onsessionclosed: (id) => {
        sessions.delete(id);
        closedSessions.push(id);
      },
    });
    void build()
      .connect(transport)
      .then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`,
    methods,
    closedSessions,
    openSessions: () => sessions.size,
    close: async () => {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

const requireHeader =
  (name: string, value: string): Gate =>
  (req, res) => {
    if (req.headers[name] === value) return true;
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
    return false;
  };

const open = { policy: egressPolicy({ allowPrivate: true }) };
const strict = { policy: egressPolicy({ allowPrivate: false }) };
const mcp = (config: Record<string, unknown>) => mcpConfigSchema.parse(config);

function only<K extends TestOutcome['kind']>(outcome: TestOutcome, kind: K): Extract<TestOutcome, { kind: K }> {
  expect(outcome).toMatchObject({ kind });
  return outcome as Extract<TestOutcome, { kind: K }>;
}

const servers: McpLoopback[] = [];
const start = async (...args: Parameters<typeof startMcpServer>) => {
  const server = await startMcpServer(...args);
  servers.push(server);
  return server;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('listMcpServerTools', () => {
  test('lists every tool with its description and input schema, then ends the session', async () => {
    const server = await start(orderTools);
    const outcome = only(await listMcpServerTools(mcp({ url: server.url }), open), 'mcp');
    expect(outcome.tools.map((tool) => tool.name)).toEqual(['lookup_order', 'cancel_order', 'delete_everything']);
    expect(outcome.tools[0]).toEqual({
      name: 'lookup_order',
      description: 'Finds an order by id',
      inputSchema: expect.objectContaining({ type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] }),
    });
    expect(outcome.tools[2]?.description).toBe('');
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
    // initialize, notifications/initialized, tools/list, then DELETE of the session; the event stream GET is never opened.
    expect(server.methods).toEqual(['POST', 'POST', 'POST', 'DELETE']);
    expect(server.closedSessions).toHaveLength(1);
    expect(server.openSessions()).toBe(0);
  });

  test('keeps only allowed_tools', async () => {
    const server = await start(orderTools);
    const outcome = only(await listMcpServerTools(mcp({ url: server.url, allowed_tools: ['cancel_order', 'not_offered'] }), open), 'mcp');
    expect(outcome.tools.map((tool) => tool.name)).toEqual(['cancel_order']);
  });

  test('sends the bearer token the server checks', async () => {
    const server = await start(orderTools, requireHeader('authorization', 'Bearer s3cret'));
    const config = mcp({ url: server.url, auth_type: 'bearer', auth_value_encrypted: 's3cret' });
    const outcome = only(await listMcpServerTools(config, open), 'mcp');
    expect(outcome.tools).toHaveLength(3);
  });

  test('a wrong bearer token is a failure outcome', async () => {
    const server = await start(orderTools, requireHeader('authorization', 'Bearer s3cret'));
    const config = mcp({ url: server.url, auth_type: 'bearer', auth_value_encrypted: 'wrong' });
    const outcome = only(await listMcpServerTools(config, open), 'failure');
    expect(outcome.code).toBe('bad_response');
    expect(outcome.message).toBe('the MCP server answered HTTP 401');
    expect(server.methods).toEqual(['POST']);
  });

  test('sends a custom auth header', async () => {
    const server = await start(orderTools, requireHeader('x-api-key', 'k-42'));
    const config = mcp({ url: server.url, auth_type: 'header', auth_header_name: 'X-Api-Key', auth_value_encrypted: 'k-42' });
    expect(only(await listMcpServerTools(config, open), 'mcp').tools).toHaveLength(3);
  });

  test('follows the cursor through every page of tools', async () => {
    const pages: Record<string, { names: string[]; next?: string }> = {
      first: { names: ['a', 'b'], next: 'p2' },
      p2: { names: ['c'], next: 'p3' },
      p3: { names: ['d'] },
    };
    const paged = () => {
      const server = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, (request) => {
        const page = pages[request.params?.cursor ?? 'first'] ?? { names: [] };
        return {
          tools: page.names.map((name) => ({ name, inputSchema: { type: 'object' as const } })),
          ...(page.next ? { nextCursor: page.next } : {}),
        };
      });
      return server;
    };
    const server = await start(paged);
    const outcome = only(await listMcpServerTools(mcp({ url: server.url }), open), 'mcp');
    expect(outcome.tools.map((tool) => tool.name)).toEqual(['a', 'b', 'c', 'd']);
  });

  test('a server that does not answer within timeout_ms is a timeout failure', async () => {
    const server = await start(orderTools, () => false);
    const outcome = only(await listMcpServerTools(mcp({ url: server.url, timeout_ms: 300 }), open), 'failure');
    expect(outcome.code).toBe('timeout');
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    expect(outcome.durationMs).toBeLessThan(5000);
  });

  test('a refused connection is an unreachable failure', async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const outcome = only(await listMcpServerTools(mcp({ url: `http://127.0.0.1:${port}/mcp` }), open), 'failure');
    expect(outcome.code).toBe('unreachable');
  });

  test('a private server is refused with EgressRefused and receives nothing', async () => {
    const server = await start(orderTools);
    await expect(listMcpServerTools(mcp({ url: server.url }), strict)).rejects.toBeInstanceOf(EgressRefused);
    const viaDns = server.url.replace('127.0.0.1', 'localhost');
    await expect(listMcpServerTools(mcp({ url: viaDns }), strict)).rejects.toBeInstanceOf(EgressRefused);
    expect(server.methods).toEqual([]);
  });
});
