// Runs a started component until SIGTERM or SIGINT, then closes it and exits; and the entry point
// of a process that runs one part of the platform on its own.
import { readEnum, type Env } from './config/env.js';
import { readInternalTransport } from './internal/internal-channel.js';
import { createLogger, logLevels, type Logger } from './logger.js';
import { readMetricsConfig } from './metrics/config.js';
import { collectProcessMetrics } from './metrics/registry.js';
import { startMetricsServer } from './metrics/server.js';

export function closeOnSignal(component: { close(): Promise<void> }, logger: Logger): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info('shutting down', { signal });
    component.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('shutdown failed', { error });
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

/** Prints a start failure (a ConfigError names the variable) and exits non-zero. */
export function failStart(error: unknown): never {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

/**
 * The `require.main === module` entry of a service or the gateway run as its own process: the
 * process's metrics server (VOICE_METRICS_HOST/PORT, with Node's process metrics labelled
 * `service`), then the part itself, until SIGTERM or SIGINT. Start functions never serve
 * metrics themselves, so a process running several parts (the platform) serves one endpoint.
 */
export function runProcess(service: string, start: (env: Env) => Promise<{ close(): Promise<void> }>, env: Env = process.env): void {
  const run = async () => {
    // Alone in its process, a part reaches the others over HTTP/2 only: refused here, before anything starts.
    readInternalTransport(env, 'one-part');
    const metrics = readMetricsConfig(env);
    const logger = createLogger({ service, level: readEnum(env, 'LOG_LEVEL', 'info', logLevels) });
    const metricsServer = metrics ? await startMetricsServer({ ...metrics, logger }) : undefined;
    if (metrics) collectProcessMetrics(service);
    let part: { close(): Promise<void> };
    try {
      part = await start(env);
    } catch (error) {
      await metricsServer?.close();
      throw error;
    }
    closeOnSignal(
      {
        close: async () => {
          await part.close();
          await metricsServer?.close();
        },
      },
      logger,
    );
  };
  run().catch(failStart);
}
