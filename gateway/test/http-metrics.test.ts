// The gateway's request metrics and access log on a real express app and port: every request is
// labelled with the template of the route that served it, also when a mounted router's handler
// fails and the error handler answers outside it; a request no route served is "unmatched".
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { createLogger } from '@voice/runtime/logger';
import { MetricsRegistry } from '@voice/runtime/metrics';
import { errorHandler } from '../src/errors/error-handler.js';
import { HttpError, methodNotAllowed } from '../src/errors/http-error.js';
import { accessLog } from '../src/middleware/access-log.js';
import { httpMetrics } from '../src/middleware/http-metrics.js';
import { requestId } from '../src/middleware/request-id.js';
import { routeTemplate } from '../src/middleware/route-template.js';

interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

let server: Server;
let url: string;
const registry = new MetricsRegistry();
const logLines: Record<string, unknown>[] = [];

/** The app's middleware in buildGatewayApp's order, a router mounted at /api/v1, app-level routes, the 404 and the error handler. */
function buildApp(): Express {
  const logger = createLogger({ service: 'gateway-test', level: 'info', write: (line) => logLines.push(JSON.parse(line) as Record<string, unknown>) });
  const app = express();
  app.use(requestId());
  app.use(routeTemplate());
  app.use(accessLog(logger));
  app.use(httpMetrics(registry));
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  const unmounted = express.Router();
  unmounted.post('/oauth/token', (_req, _res, next) => next(new HttpError('invalid_request', 'no')));
  app.use(unmounted);
  const api = express.Router();
  api.get('/tools/:id', (req, res, next) => {
    if (req.params.id === 'missing') return next(new HttpError('not_found', 'tool not found'));
    if (req.params.id === 'throw') return Promise.reject(new Error('boom')).catch(next);
    res.json({ data: { id: req.params.id } });
  });
  api.all('/tools/:id', (_req, _res, next) => next(methodNotAllowed('GET, HEAD')));
  app.use('/api/v1', api);
  app.use((req, _res, next) => next(new HttpError('not_found', `no route for ${req.method} ${req.path}`)));
  app.use(errorHandler(createLogger({ service: 'gateway-test', level: 'silent' })));
  return app;
}

beforeAll(async () => {
  server = createServer(buildApp());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function counts(): Promise<Map<string, number>> {
  const { values } = (await registry.getSingleMetric('http_server_requests_total')!.get()) as { values: Sample[] };
  return new Map(values.map((sample) => [`${sample.labels.method} ${sample.labels.route} ${sample.labels.status}`, sample.value]));
}

test('routes are counted by template, across mounted routers and their failures; unserved paths as unmatched', async () => {
  const answers = await Promise.all(
    [
      ['GET', '/api/v1/tools/t-1'],
      ['GET', '/api/v1/tools/t-2'],
      ['GET', '/api/v1/tools/missing'],
      ['GET', '/api/v1/tools/throw'],
      ['HEAD', '/api/v1/tools/t-3'],
      ['DELETE', '/api/v1/tools/t-4'],
      ['GET', '/healthz'],
      ['POST', '/oauth/token'],
      ['GET', '/api/v1/unknown/5'],
      ['GET', '/nowhere'],
    ].map(async ([method, path]) => [path, (await fetch(`${url}${path}`, { method })).status]),
  );
  expect(answers.map(([, status]) => status)).toEqual([200, 200, 404, 500, 200, 405, 200, 400, 404, 404]);
  expect(Object.fromEntries(await counts())).toEqual({
    'GET /api/v1/tools/:id 200': 2,
    'GET /api/v1/tools/:id 404': 1,
    'GET /api/v1/tools/:id 500': 1,
    'HEAD /api/v1/tools/:id 200': 1,
    'DELETE /api/v1/tools/:id 405': 1,
    'GET /healthz 200': 1,
    'POST /oauth/token 400': 1,
    'GET unmatched 404': 2,
  });
  const durations = (await registry.getSingleMetric('http_server_request_duration_seconds')!.get()) as { values: Sample[] };
  const count = durations.values.find(
    (sample) => sample.metricName === 'http_server_request_duration_seconds_count' && sample.labels.method === 'GET' && sample.labels.route === '/api/v1/tools/:id' && sample.labels.status === '200',
  );
  expect(count?.value).toBe(2);
});

test('the access log line carries the request id, method, route template, status and duration, and never the path', async () => {
  logLines.length = 0;
  const response = await fetch(`${url}/api/v1/tools/missing?secret=1`, { headers: { 'x-request-id': 'req-access-1' } });
  expect(response.status).toBe(404);
  await new Promise((resolve) => setImmediate(resolve));
  expect(logLines).toEqual([
    {
      time: expect.any(String),
      level: 'info',
      msg: 'request',
      service: 'gateway-test',
      request_id: 'req-access-1',
      method: 'GET',
      route: '/api/v1/tools/:id',
      status: 404,
      duration_ms: expect.any(Number),
    },
  ]);
});
