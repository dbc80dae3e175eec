// Runs a started component until SIGTERM or SIGINT, then closes it and exits.
import type { Logger } from './logger.js';

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
