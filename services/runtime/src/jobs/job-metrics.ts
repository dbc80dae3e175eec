// The metrics of periodic jobs: runs, items handled and failed runs, by job.
import { counterIn, type MetricsRegistry } from '../metrics/registry.js';

export interface JobMetrics {
  ran(job: string, items: number): void;
  failed(job: string): void;
}

/** Records `periodic_job_runs_total`, `periodic_job_items_total` and `periodic_job_failures_total`. */
export function jobMetrics(registry: MetricsRegistry): JobMetrics {
  const runs = counterIn(registry, { name: 'periodic_job_runs_total', help: 'Runs of periodic jobs on this replica (failed ones too), by job.', labelNames: ['job'] as const });
  const items = counterIn(registry, { name: 'periodic_job_items_total', help: 'Items periodic jobs handled on this replica (released, renewed, pruned), by job.', labelNames: ['job'] as const });
  const failures = counterIn(registry, { name: 'periodic_job_failures_total', help: 'Runs of periodic jobs that failed on this replica, by job.', labelNames: ['job'] as const });
  return {
    ran: (job, count) => {
      runs.inc({ job });
      items.inc({ job }, count);
    },
    failed: (job) => {
      runs.inc({ job });
      failures.inc({ job });
    },
  };
}
