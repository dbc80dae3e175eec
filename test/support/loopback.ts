// Real servers on 127.0.0.1 standing in for the outside world a tool calls: an HTTP API that
// records what it received, and an MCP server speaking Streamable HTTP through the SDK.
import http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { closerOf, listenOnLoopback } from './listen.js';

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
  return { url: await listenOnLoopback(server, host), received, close: closerOf(server) };
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
  return { url: `${await listenOnLoopback(server)}/mcp`, received, close: closerOf(server) };
}
