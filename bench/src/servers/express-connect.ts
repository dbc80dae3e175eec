// Child process: express 5 whose one handler makes ONE binary Connect call over HTTP/2 to a trivial
// service in the same process (as the platform does), then answers the tool GET's JSON (our stack's floor).
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { internalSessionManager } from '@voice/runtime/internal';
import { Health, HealthCheckResponse_ServingStatus as ServingStatus } from '@voice/proto/grpc/health/v1/health';
import { announceReady, responseBodyFromEnv } from './ready.js';
import { startHealthService } from './health-service.js';

async function main(): Promise<void> {
  const body = responseBodyFromEnv();
  const baseUrl = await startHealthService();
  // The same transport settings as the gateway's service clients (gateway/src/clients.ts).
  const sessionManager = internalSessionManager(baseUrl);
  const transport = createConnectTransport({ baseUrl, httpVersion: '2', useBinaryFormat: true, defaultTimeoutMs: 30_000, sessionManager });
  const health = createClient(Health, transport);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/api/v1/tools/:id', async (_req, res) => {
    const answer = await health.check({ service: '' });
    if (answer.status !== ServingStatus.SERVING) {
      res.status(503).json({ error: { code: 'internal_error', message: 'not serving' } });
      return;
    }
    res.json(body);
  });
  const server = app.listen(0, '127.0.0.1', () => {
    announceReady(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  server.keepAliveTimeout = 65_000;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
process.once('SIGTERM', () => process.exit(0));
