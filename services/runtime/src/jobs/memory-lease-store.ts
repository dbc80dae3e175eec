// Job leases in this process's memory: the embedded platform's equivalent of the NATS bucket, with
// the same compare-and-set rules, for runners that share one process.
import type { LeaseRecord, LeaseStore, StoredLease } from './lease-store.js';

export class MemoryLeaseStore implements LeaseStore {
  private readonly leases = new Map<string, StoredLease>();
  private lastRevision = 0;

  async read(job: string): Promise<StoredLease | undefined> {
    const stored = this.leases.get(job);
    return stored && { record: { ...stored.record }, revision: stored.revision };
  }

  async create(job: string, record: LeaseRecord): Promise<number | undefined> {
    if (this.leases.has(job)) return undefined;
    return this.write(job, record);
  }

  async replace(job: string, record: LeaseRecord, revision: number): Promise<number | undefined> {
    if (this.leases.get(job)?.revision !== revision) return undefined;
    return this.write(job, record);
  }

  async close(): Promise<void> {}

  private write(job: string, record: LeaseRecord): number {
    this.lastRevision += 1;
    this.leases.set(job, { record: { ...record }, revision: this.lastRevision });
    return this.lastRevision;
  }
}
