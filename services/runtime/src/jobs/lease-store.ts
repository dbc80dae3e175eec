// The storage a job lease lives in: one record per job name, changed only by compare-and-set on its
// revision, so two replicas can never both believe they took or renewed the same lease.

/** How long a lease lasts without renewal unless configured (VOICE_JOB_LEASE_SECONDS). */
export const defaultLeaseMs = 30_000;

/** Who holds a job's lease, until when, and when the job last ran (so a new holder keeps the period). */
export interface LeaseRecord {
  holder: string;
  /** Epoch milliseconds on the lease clock; a lease past it is free to take. */
  expiresAt: number;
  /** Epoch milliseconds on the lease clock when the last run started; absent before the first. */
  lastRunAt?: number;
}

export interface StoredLease {
  record: LeaseRecord;
  revision: number;
}

export interface LeaseStore {
  read(job: string): Promise<StoredLease | undefined>;
  /** The new revision, or undefined when a record of this job already exists. */
  create(job: string, record: LeaseRecord): Promise<number | undefined>;
  /** The new revision, or undefined when the record is no longer at `revision`. */
  replace(job: string, record: LeaseRecord, revision: number): Promise<number | undefined>;
  close(): Promise<void>;
}

export const encodeLease = (record: LeaseRecord): Uint8Array => new TextEncoder().encode(JSON.stringify(record));

export function decodeLease(bytes: Uint8Array): LeaseRecord | undefined {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof value !== 'object' || value === null) return undefined;
    const { holder, expiresAt, lastRunAt } = value as Record<string, unknown>;
    if (typeof holder !== 'string' || typeof expiresAt !== 'number') return undefined;
    return { holder, expiresAt, ...(typeof lastRunAt === 'number' ? { lastRunAt } : {}) };
  } catch {
    return undefined;
  }
}
