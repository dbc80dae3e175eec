// Real servers on 127.0.0.1 standing in for the outside world a tool calls: an HTTP API that
// records what it received, and an MCP server speaking Streamable HTTP through the SDK.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Loopback {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** Listens on `host` (127.0.0.1 unless a test needs every interface); the URL always names 127.0.0.1. */
async function listen(server: http.Server, host = '127.0.0.1'): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const closer = (server: http.Server) => () =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export async function startHttpApi(
  respond: (request: Received, res: http.ServerResponse) => void = (_request, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ data: { status: 'shipped', eta: '2026-12-01' } }));
  },
  host?: string,
): Promise<Loopback> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      received.push(request);
      respond(request, res);
    });
  });
  return { url: await listen(server, host), received, close: closer(server) };
}

/** A stateless MCP server that requires `Authorization: Bearer <token>`. */
export async function startMcpServer(token: string): Promise<Loopback> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' });
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401).end();
      return;
    }
    const mcp = new McpServer({ name: 'orders', version: '1.0.0' });
    mcp.registerTool('lookup_order', { description: 'Finds an order', inputSchema: { order_id: z.string() } }, async () => ({ content: [] }));
    mcp.registerTool('refund_order', { description: 'Refunds an order', inputSchema: { order_id: z.string() } }, async () => ({ content: [] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close());
    void mcp.connect(transport).then(() => transport.handleRequest(req, res));
  });
  return { url: `${await listen(server)}/mcp`, received, close: closer(server) };
}
