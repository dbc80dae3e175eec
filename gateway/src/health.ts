// /healthz (this process is up) and /readyz (every service it needs answers SERVING).
import type { Express } from 'express';
import { HealthCheckResponse_ServingStatus as ServingStatus } from '@voice/proto/grpc/health/v1/health';
import type { ServiceClients } from './clients.js';

export function registerHealthRoutes(app: Express, clients: ServiceClients): void {
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.get('/readyz', async (_req, res) => {
    const checks = await Promise.all(
      Object.entries(clients.health).map(async ([name, client]) => {
        try {
          const answer = await client.check({ service: '' }, { timeoutMs: 1000 });
          return [name, answer.status === ServingStatus.SERVING ? 'serving' : 'not_serving'] as const;
        } catch {
          return [name, 'unreachable'] as const;
        }
      }),
    );
    const ready = checks.every(([, status]) => status === 'serving');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', services: Object.fromEntries(checks) });
  });
}
