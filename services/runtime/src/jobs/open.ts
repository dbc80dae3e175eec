// The job leases configuration asks for: the shared NATS bucket when NATS_URL is set (replicas may
// run), else this process's memory (the embedded platform runs one replica of each service).
import { namespacedName } from '../events/namespaced.js';
import type { CommonConfig } from '../config/service-config.js';
import type { LeaseStore } from './lease-store.js';
import { MemoryLeaseStore } from './memory-lease-store.js';
import { jobLeaseBucket, NatsLeaseStore } from './nats-lease-store.js';

export const openJobLeases = (common: Pick<CommonConfig, 'natsUrl' | 'eventNamespace' | 'natsReplicas'>, name: string): Promise<LeaseStore> =>
  common.natsUrl
    ? NatsLeaseStore.connect(common.natsUrl, namespacedName(common.eventNamespace, jobLeaseBucket), `${name}-jobs`, common.natsReplicas)
    : Promise.resolve(new MemoryLeaseStore());
