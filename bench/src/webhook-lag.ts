// How long a source event takes to reach a webhook receiver: an endpoint of the bench's workspace
// wants sms.status, a receiver on loopback records when each event arrived, and the lag of each is
// its arrival less the event's created_at (when the carrier's report moved the message), through
// telephony's outbox, the event stream, the delivery worker's fan-out and its sending job.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { expectApi } from './api-client.js';
import { lagFiguresOf, type LagFigures } from './sms-lag.js';

export interface WebhookLagReport {
  /** sms.status events the receiver got (each status of each message, copies counted once). */
  events: number;
  lagMs: LagFigures | undefined;
}

export interface WebhookLagProbe {
  /** Waits until no event arrived for `quietMs` (at most `timeoutSeconds`), then reports. */
  finish(quietMs: number, timeoutSeconds: number): Promise<WebhookLagReport>;
}

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
  await expectApi(201, baseUrl, apiKey, 'POST', '/api/v1/webhooks', { url, event_types: ['sms.status'] });
  return {
    finish: async (quietMs, timeoutSeconds) => {
      const deadline = Date.now() + timeoutSeconds * 1000;
      while (Date.now() - lastArrival < quietMs && Date.now() < deadline) await sleep(100);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      return { events: lags.size, lagMs: lagFiguresOf([...lags.values()]) };
    },
  };
}
