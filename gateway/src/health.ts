// /healthz (this process answers), /readyz (this gateway takes traffic: it listens and is not
// draining) and /health/dependencies (every service answers SERVING). /readyz lists the services'
// states too, for operators, but never depends on them: a gateway that cannot reach one service
// still serves the routes of the others, and answers 503 for that service's routes itself.
import type { Express } from 'express';
import { HealthCheckResponse_ServingStatus as ServingStatus } from '@voice/proto/grpc/health/v1/health';
import type { ServiceClients } from './clients.js';

export type DependencyState = 'serving' | 'not_serving' | 'unreachable';

/** Each service's answer to grpc.health.v1.Health/Check, asked in parallel, 1 s each. */
async function dependencyStates(clients: ServiceClients): Promise<Record<string, DependencyState>> {
  const checks = await Promise.all(
    Object.entries(clients.health).map(async ([name, client]): Promise<[string, DependencyState]> => {
      try {
        const answer = await client.check({ service: '' }, { timeoutMs: 1000 });
        return [name, answer.status === ServingStatus.SERVING ? 'serving' : 'not_serving'];
      } catch {
        return [name, 'unreachable'];
      }
    }),
  );
  return Object.fromEntries(checks);
}

/**
 * Outside /api/v1 and public, like the probes that call them. `draining` is true from SIGTERM on
 * (main.ts), while requests in flight and late arrivals are still served.
 */
export function registerHealthRoutes(app: Express, clients: ServiceClients, draining: () => boolean): void {
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.get('/readyz', async (_req, res) => {
    const services = await dependencyStates(clients);
    // Read after the checks: a drain that began meanwhile is answered at once.
    const ready = !draining();
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'draining', services });
  });

  app.get('/health/dependencies', async (_req, res) => {
    const services = await dependencyStates(clients);
    const all = Object.values(services).every((state) => state === 'serving');
    res.status(all ? 200 : 503).json({ status: all ? 'ok' : 'degraded', services });
  });
}
