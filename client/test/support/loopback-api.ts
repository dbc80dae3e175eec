// A stand-in for the platform's REST API on loopback, for the client's unit tests: it answers what
// each test's handler says over real HTTP and records the requests the client sent.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface LoopbackApi {
  /** The base URL with the version prefix, as a client is given it. */
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startLoopbackApi(handle: (request: RecordedRequest) => Answer): Promise<LoopbackApi> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://loopback');
      const request = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString() };
      requests.push(request);
      const answer = handle(request);
      const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      const contentType = typeof answer.body === 'string' ? 'text/html' : 'application/json';
      res.writeHead(answer.status, { 'content-type': contentType, 'x-request-id': `req-${requests.length}`, ...answer.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** A page of `items` as the API answers a list: limit and offset from the query, the total of all. */
export function pageOf<T>(items: readonly T[], query: URLSearchParams): Answer {
  const limit = Number(query.get('limit') ?? 50);
  const offset = Number(query.get('offset') ?? 0);
  return { status: 200, body: { data: items.slice(offset, offset + limit), meta: { pagination: { limit, offset, total: items.length } } } };
}
