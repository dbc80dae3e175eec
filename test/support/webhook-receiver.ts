// A user's webhook receiver on 127.0.0.1: records every request as it arrived (raw body included)
// and answers as the test says (a status, or no answer at all until released), and the receiver's
// side of the signature check (the typed client's, as a user's receiver would use it).
import http from 'node:http';
import { closerOf, listenOnLoopback } from './listen.js';
import { verifyWebhookSignature, WebhookSignatureError } from '@voice/client';

export interface WebhookRequest {
  headers: http.IncomingHttpHeaders;
  /** The body exactly as it came, before any parsing: what the signature covers. */
  rawBody: string;
  event: { id: string; type: string; created_at: string; data: Record<string, unknown> };
  receivedAt: number;
}

/** What the receiver does with a request: answer this status, or hold it unanswered. */
export type ReceiverAnswer = number | 'hang';

export interface WebhookReceiver {
  url: string;
  received: WebhookRequest[];
  /** How the next requests are answered (200 unless set). */
  answer(with_: ReceiverAnswer): void;
  /** TCP connections the receiver has accepted so far. */
  connections(): number;
  /** Closes the connections that carry no request now, as a server whose keep-alive timeout ran out does. */
  closeIdleConnections(): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: WebhookRequest[] = [];
  let answer: ReceiverAnswer = 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, rawBody, event: JSON.parse(rawBody) as WebhookRequest['event'], receivedAt: Date.now() });
      if (answer === 'hang') return;
      res.statusCode = answer;
      res.end();
    });
  });
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  return {
    url: `${await listenOnLoopback(server)}/hooks`,
    received,
    answer: (next) => {
      answer = next;
    },
    connections: () => connections,
    closeIdleConnections: () => server.closeIdleConnections(),
    close: closerOf(server),
  };
}

/** The header's parts: its timestamp and every v1 signature. */
export function signatureParts(header: string): { t: string; v1: string[] } {
  const parts = header.split(',').map((part) => part.split('=') as [string, string]);
  return { t: parts.find(([key]) => key === 't')?.[1] ?? '', v1: parts.filter(([key]) => key === 'v1').map(([, value]) => value) };
}

/**
 * The receiver's check, made as a user makes it with @voice/client: some v1 is the HMAC-SHA256 of
 * "<t>.<raw body>" under `secret`. The signature's age is not held against it: tests move the
 * delivery worker's clock days ahead (and the platform refuses nothing based on the clock either).
 */
export async function verifySignature(rawBody: string, header: string, secret: string): Promise<boolean> {
  try {
    await verifyWebhookSignature({ payload: rawBody, header, secret, toleranceSeconds: Number.MAX_SAFE_INTEGER });
    return true;
  } catch (error) {
    if (error instanceof WebhookSignatureError) return false;
    throw error;
  }
}
