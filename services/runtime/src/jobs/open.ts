// The job leases configuration asks for: the shared NATS bucket when NATS_URL is set (replicas may
// run), else this process's memory (the embedded platform runs one replica of each service).
import { namespacedName } from '../events/namespaced.js';
import type { CommonConfig } from '../config/service-config.js';
import type { LeaseStore } from './lease-store.js';
import { MemoryLeaseStore } from './memory-lease-store.js';
import { jobLeaseBucket, NatsLeaseStore } from './nats-lease-store.js';
import { PeriodicJobs, type PeriodicJob, type PeriodicJobsOptions } from './periodic-jobs.js';

export const openJobLeases = (common: Pick<CommonConfig, 'natsUrl' | 'eventNamespace' | 'natsReplicas'>, name: string): Promise<LeaseStore> =>
  common.natsUrl
    ? NatsLeaseStore.connect(common.natsUrl, namespacedName(common.eventNamespace, jobLeaseBucket), `${name}-jobs`, common.natsReplicas)
    : Promise.resolve(new MemoryLeaseStore());

/** A service's periodic jobs, running on the leases configuration asks for. */
export interface RunningJobs {
  /** Stops the jobs (handing their leases back), then closes the leases. */
  stop(): Promise<void>;
}

/** Opens the service's job leases and starts `jobs` on them. */
export async function startPeriodicJobs(
  common: Pick<CommonConfig, 'natsUrl' | 'eventNamespace' | 'natsReplicas' | 'jobLeaseMs'>,
  service: string,
  options: Omit<PeriodicJobsOptions, 'leases'>,
  jobs: readonly PeriodicJob[],
): Promise<RunningJobs> {
  const leases = await openJobLeases(common, service);
  const runner = new PeriodicJobs({ leaseMs: common.jobLeaseMs, ...options, leases });
  runner.start(jobs);
  return {
    stop: async () => {
      await runner.stop();
      await leases.close();
    },
  };
}
