// The process's metrics: one registry every part of the process records into (each service of the
// single-process platform too, told apart by its `service` label), and get-or-create helpers, so a
// part started more than once in a process (restarts, tests) reuses the metrics it registered.
import { collectDefaultMetrics, Counter, Histogram, Registry, type CounterConfiguration, type HistogramConfiguration } from 'prom-client';

export { Registry as MetricsRegistry } from 'prom-client';

/** The registry of this process; the metrics server serves it unless told otherwise. */
export const metricsRegistry = new Registry();

type Config<C> = Omit<C, 'registers'>;

/** The registry's counter of this name, created on first use. */
export function counterIn<T extends string>(registry: Registry, config: Config<CounterConfiguration<T>>): Counter<T> {
  const existing = registry.getSingleMetric(config.name);
  if (existing instanceof Counter) return existing as Counter<T>;
  if (existing) throw new Error(`metric ${config.name} is already registered as another type`);
  return new Counter({ ...config, registers: [registry] });
}

/** The registry's histogram of this name, created on first use. */
export function histogramIn<T extends string>(registry: Registry, config: Config<HistogramConfiguration<T>>): Histogram<T> {
  const existing = registry.getSingleMetric(config.name);
  if (existing instanceof Histogram) return existing as Histogram<T>;
  if (existing) throw new Error(`metric ${config.name} is already registered as another type`);
  return new Histogram({ ...config, registers: [registry] });
}

/**
 * Starts collecting Node's process metrics (CPU, memory, event-loop delay, GC, handles) into the
 * registry, labelled with the process's service (`platform` for the single-process launcher). Once
 * per registry: later calls change nothing.
 */
export function collectProcessMetrics(service: string, registry: Registry = metricsRegistry): void {
  if (registry.getSingleMetric('process_cpu_user_seconds_total')) return;
  collectDefaultMetrics({ register: registry, labels: { service } });
}

/** Buckets (seconds) of request-duration histograms: 1 ms to 10 s. */
export const requestDurationBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Seconds elapsed since a process.hrtime.bigint() reading. */
export const secondsSince = (started: bigint): number => Number(process.hrtime.bigint() - started) / 1e9;
