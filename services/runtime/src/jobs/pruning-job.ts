// A service's pruning job: one periodic job that deletes, kind by kind, the records kept past
// their retention, at most one batch per run in all (a full batch is followed by another run at
// once), and counts what it deleted by kind.
import type { PrunableOutbox } from '../events/outbox.js';
import { counterIn, metricsRegistry, type MetricsRegistry } from '../metrics/registry.js';
import type { PeriodicJob } from './periodic-jobs.js';

/** One kind of record a pruning job deletes. */
export interface PruneStep {
  /** The metric's `kind` label, e.g. `outbox`, `processed_events`, `oauth_tokens`. */
  kind: string;
  /** How long a record is kept, counted from the instant the step's rule names (publication, expiry, …). */
  retentionMs: number;
  /** Deletes at most `limit` records whose instant is before `before` (ISO 8601); answers how many. */
  prune(before: string, limit: number): Promise<number>;
}

export interface PruningJobOptions {
  /** The service, e.g. `billing`: the job is `<service>.retention`. */
  service: string;
  periodMs: number;
  steps: readonly PruneStep[];
  registry?: MetricsRegistry;
}

/** Records `retention_pruned_records_total` by job and kind. */
export function pruningJob(options: PruningJobOptions): PeriodicJob {
  const name = `${options.service}.retention`;
  const pruned = counterIn(options.registry ?? metricsRegistry, {
    name: 'retention_pruned_records_total',
    help: 'Records deleted by pruning jobs after their retention period, by job and kind.',
    labelNames: ['job', 'kind'] as const,
  });
  return {
    name,
    periodMs: options.periodMs,
    run: async ({ now, signal, batchSize }) => {
      let total = 0;
      for (const step of options.steps) {
        const limit = batchSize - total;
        if (limit <= 0 || signal.aborted) break;
        const count = await step.prune(new Date(now.getTime() - step.retentionMs).toISOString(), limit);
        if (count > 0) pruned.inc({ job: name, kind: step.kind }, count);
        total += count;
      }
      return total;
    },
  };
}

/** The step every service with an outbox has: events published longer ago than the retention. */
export const publishedEventsStep = (outbox: Pick<PrunableOutbox, 'prune'>, retentionMs: number): PruneStep => ({
  kind: 'outbox',
  retentionMs,
  prune: (before, limit) => outbox.prune(before, limit),
});
