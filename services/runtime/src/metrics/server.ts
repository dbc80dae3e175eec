// The metrics endpoint of a process: GET /metrics in the Prometheus text format over plain
// HTTP/1.1 (Prometheus cannot scrape the services' h2c ports), on its own port, never the public one.
import { createServer, type ServerResponse } from 'node:http';
import { listenOn } from '../server/listen.js';
import type { Logger } from '../logger.js';
import { metricsRegistry, type MetricsRegistry } from './registry.js';

export const metricsPath = '/metrics';

export interface MetricsServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  registry?: MetricsRegistry;
  logger?: Logger;
}

export interface MetricsServer {
  port: number;
  /** The address of the exposition, e.g. http://127.0.0.1:9464/metrics. */
  url: string;
  close(): Promise<void>;
}

const answer = (res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(text);
};

export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const registry = options.registry ?? metricsRegistry;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== metricsPath) return answer(res, 404, 'not found\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, 405, 'method not allowed\n', { Allow: 'GET, HEAD' });
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        options.logger?.error('metrics collection failed', { error });
        answer(res, 500, 'metrics collection failed\n');
      },
    );
  });
  const bound = await listenOn(server, options.port, options.host);
  const port = bound.port;
  const url = `${bound.url}${metricsPath}`;
  options.logger?.info('metrics listening', { url });
  return {
    port,
    url,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A scraper keeps its connection open between scrapes; nothing it waits for is lost.
      server.closeAllConnections();
      await closed;
    },
  };
}
