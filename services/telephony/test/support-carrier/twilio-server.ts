// A Twilio-shaped REST API on 127.0.0.1 for the carrier adapter tests: records every request and
// answers through a handler the test sets.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body parsed as a form. */
  form: Record<string, string>;
}

/** What the server does: answer with a status and JSON, text or bytes (after a delay, if given), or never answer, or drop the connection. */
export type Reply = { status: number; json?: unknown; text?: string; bytes?: Buffer; headers?: Record<string, string>; delayMs?: number } | 'hang' | 'drop';

export interface FakeTwilio {
  baseUrl: string;
  received: ReceivedRequest[];
  handle: (request: ReceivedRequest) => Reply;
  close(): Promise<void>;
}

export async function startFakeTwilio(): Promise<FakeTwilio> {
  const fake: FakeTwilio = {
    baseUrl: '',
    received: [],
    handle: () => ({ status: 404, json: { code: 20404, message: 'not found', status: 404 } }),
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const body = Buffer.concat(chunks).toString('utf8');
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        form: Object.fromEntries(new URLSearchParams(body)),
      };
      fake.received.push(request);
      const reply = fake.handle(request);
      if (reply === 'hang') return;
      if (reply === 'drop') {
        req.socket.destroy();
        return;
      }
      const text = reply.bytes ?? reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
      const answer = () => res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(text);
      if (reply.delayMs === undefined) answer();
      else setTimeout(answer, reply.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** A port nothing listens on (bound once, then released). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const twilioError = (status: number, code: number, message: string): Reply => ({
  status,
  json: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
});
