// How long a source event takes to reach a webhook receiver: an endpoint of the bench's workspace
// wants sms.status, a receiver on loopback records when each event arrived, and the lag of each is
// its arrival less the event's created_at (when the carrier's report moved the message), through
// telephony's outbox, the event stream, the delivery worker's fan-out and its sending job.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LagFigures } from './sms-lag.js';

export interface WebhookLagReport {
  /** sms.status events the receiver got (each status of each message, copies counted once). */
  events: number;
  lagMs: LagFigures | undefined;
}

export interface WebhookLagProbe {
  /** Waits until no event arrived for `quietMs` (at most `timeoutSeconds`), then reports. */
  finish(quietMs: number, timeoutSeconds: number): Promise<WebhookLagReport>;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Starts the receiver and adds the endpoint that sends it the workspace's sms.status events. */
export async function startWebhookLagProbe(baseUrl: string, apiKey: string): Promise<WebhookLagProbe> {
  const lags = new Map<string, number>();
  let lastArrival = Date.now();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const arrived = Date.now();
      lastArrival = arrived;
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; created_at: string };
      if (!lags.has(event.id)) lags.set(event.id, arrived - Date.parse(event.created_at));
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
  const created = await fetch(`${baseUrl}/api/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, event_types: ['sms.status'] }),
  });
  if (created.status !== 201) throw new Error(`the bench's webhook endpoint was refused: ${created.status} ${await created.text()}`);
  return {
    finish: async (quietMs, timeoutSeconds) => {
      const deadline = Date.now() + timeoutSeconds * 1000;
      while (Date.now() - lastArrival < quietMs && Date.now() < deadline) await sleep(100);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const sorted = [...lags.values()].sort((a, b) => a - b);
      const lagMs =
        sorted.length === 0
          ? undefined
          : { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1]!, mean: sorted.reduce((sum, lag) => sum + lag, 0) / sorted.length };
      return { events: sorted.length, lagMs };
    },
  };
}
