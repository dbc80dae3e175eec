// The metrics of an HTTP server (the gateway): requests by method, route template and status.
import { counterIn, histogramIn, metricsRegistry, requestDurationBuckets, type MetricsRegistry } from './registry.js';

export interface HttpRequestLabels {
  method: string;
  /** The route's template (`/api/v1/tools/:id`), never the path itself; `unmatched` when no route served it. */
  route: string;
  status: number;
}

export interface HttpServerMetrics {
  observe(labels: HttpRequestLabels, seconds: number): void;
}

/** Records `http_server_requests_total` and `http_server_request_duration_seconds` in the registry. */
export function httpServerMetrics(registry: MetricsRegistry = metricsRegistry): HttpServerMetrics {
  const requests = counterIn(registry, {
    name: 'http_server_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
  });
  const durations = histogramIn(registry, {
    name: 'http_server_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: requestDurationBuckets,
  });
  return {
    observe: ({ method, route, status }, seconds) => {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      durations.observe(labels, seconds);
    },
  };
}
