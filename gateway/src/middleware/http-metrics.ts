// http_server_requests_total and http_server_request_duration_seconds for every answered request,
// labelled with the route template (see route-template.ts), never the raw path.
import type { RequestHandler } from 'express';
import { httpServerMetrics, secondsSince, type MetricsRegistry } from '@voice/runtime/metrics';
import { routeTemplateOf } from './route-template.js';

export const httpMetrics = (registry?: MetricsRegistry): RequestHandler => {
  const metrics = httpServerMetrics(registry);
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      metrics.observe({ method: req.method, route: routeTemplateOf(res), status: res.statusCode }, secondsSince(started));
    });
    next();
  };
};
