// Named periodic jobs that run on exactly one replica at a time. Each job has a lease (a record
// changed only by compare-and-set): a replica runs the job only while it holds the lease, renews it
// while the run lasts (and aborts the run the moment it cannot), keeps it between runs, and gives it
// up on stop; a holder that dies stops renewing, and another replica takes the lease once it
// expired. The lease records when the job last ran, so the period survives a handover.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../logger.js';
import { settledWithin } from '../shutdown.js';
import { metricsRegistry, type MetricsRegistry } from '../metrics/registry.js';
import { defaultLeaseMs, type LeaseRecord, type LeaseStore, type StoredLease } from './lease-store.js';
import { jobMetrics, type JobMetrics } from './job-metrics.js';

/** What one run of a job gets. */
export interface JobRun {
  /** The jobs' clock (injectable, so tests can move it). */
  now: Date;
  /** Aborted on stop and when the lease could not be renewed: end the run between items. */
  signal: AbortSignal;
  /** Handle at most this many items; a run that handled this many is followed by another at once. */
  batchSize: number;
}

export interface PeriodicJob {
  /** Unique on the platform, e.g. `billing.expired-holds`: the lease's key and the metrics' `job` label. */
  name: string;
  /** How long after a run starts the next one is due. */
  periodMs: number;
  /** Default 500. */
  batchSize?: number;
  /** One run; answers how many items it handled. */
  run(run: JobRun): Promise<number>;
}

export interface PeriodicJobsOptions {
  leases: LeaseStore;
  logger: Logger;
  /** The time each run is given; default the system clock. */
  clock?: () => Date;
  /** How long a lease lasts without renewal: a dead holder's jobs wait this long at most. Default 30 s. */
  leaseMs?: number;
  /** Epoch milliseconds for leases and periods (real time even when the jobs' clock is moved); default Date.now. */
  leaseClock?: () => number;
  registry?: MetricsRegistry;
}

export const defaultJobBatchSize = 500;

export class PeriodicJobs {
  private readonly loops: JobLoop[] = [];
  private readonly stopping = new AbortController();
  readonly holder = `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;

  constructor(private readonly options: PeriodicJobsOptions) {}

  /** Starts running `jobs` (each when its lease is free and its period has passed). */
  start(jobs: readonly PeriodicJob[]): void {
    const metrics = jobMetrics(this.options.registry ?? metricsRegistry);
    for (const job of jobs) {
      const loop = new JobLoop(job, this.holder, this.options, metrics, this.stopping.signal);
      this.loops.push(loop);
      loop.start();
    }
  }

  /** Aborts the runs in flight, waits for them to end and hands every held lease back. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.all(this.loops.splice(0).map((loop) => loop.stop()));
  }
}

class JobLoop {
  private readonly leaseMs: number;
  private readonly leaseClock: () => number;
  private readonly clock: () => Date;
  private readonly batchSize: number;
  private readonly logger: Logger;
  private readonly leases: LeaseStore;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private held: StoredLease | undefined;
  /** The last run filled its batch: run again without waiting for the period. */
  private more = false;

  constructor(
    private readonly job: PeriodicJob,
    private readonly holder: string,
    options: PeriodicJobsOptions,
    private readonly metrics: JobMetrics,
    private readonly stopping: AbortSignal,
  ) {
    this.leases = options.leases;
    this.leaseMs = options.leaseMs ?? defaultLeaseMs;
    this.leaseClock = options.leaseClock ?? Date.now;
    this.clock = options.clock ?? (() => new Date());
    this.batchSize = job.batchSize ?? defaultJobBatchSize;
    this.logger = options.logger.child({ component: 'jobs', job: job.name });
  }

  /** Renewals and checks for a free lease come this often. */
  private get checkMs(): number {
    return Math.max(1, Math.floor(this.leaseMs / 3));
  }

  start(): void {
    this.schedule(0);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    // The run is aborted; one stuck on a dependency that does not answer is let go (its lease
    // expires on its own, and the next holder does the run again).
    if (!(await settledWithin(this.inFlight))) {
      this.logger.warn('job run still waiting on a dependency at stop; leaving it');
      return;
    }
    const held = this.held;
    this.held = undefined;
    if (!held) return;
    // Expired at once, so another replica takes over on its next check; the last run stays recorded.
    await this.leases.replace(this.job.name, { ...held.record, expiresAt: 0 }, held.revision).catch((error: unknown) => {
      this.logger.warn('job lease not handed back; it expires on its own', { error });
    });
  }

  private schedule(delayMs: number): void {
    if (this.stopping.aborted) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.inFlight = this.tick().finally(() => {
        this.inFlight = undefined;
      });
    }, delayMs);
    // The jobs alone must not keep a process alive that is otherwise done.
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    let next = this.checkMs;
    try {
      const lease = await this.claim();
      if (lease && !this.stopping.aborted) {
        const now = this.leaseClock();
        const dueAt = (lease.record.lastRunAt ?? Number.NEGATIVE_INFINITY) + this.job.periodMs;
        if (this.more || now >= dueAt) {
          await this.runHolding();
          next = this.more ? 0 : Math.min(this.job.periodMs, this.checkMs);
        } else {
          next = Math.min(dueAt - now, this.checkMs);
        }
      }
    } catch (error) {
      this.more = false;
      this.logger.warn('job lease could not be checked; trying again', { error });
    }
    this.schedule(next);
  }

  /** Takes the lease when it is free or expired, renews it when it is ours; undefined when another replica holds it. */
  private async claim(): Promise<StoredLease | undefined> {
    const now = this.leaseClock();
    const current = await this.leases.read(this.job.name);
    if (!current) {
      const record: LeaseRecord = { holder: this.holder, expiresAt: now + this.leaseMs };
      const revision = await this.leases.create(this.job.name, record);
      return this.keep(revision === undefined ? undefined : { record, revision });
    }
    if (current.record.holder !== this.holder && current.record.expiresAt > now) return this.keep(undefined);
    const record: LeaseRecord = { ...current.record, holder: this.holder, expiresAt: now + this.leaseMs };
    const revision = await this.leases.replace(this.job.name, record, current.revision);
    if (revision !== undefined && current.record.holder !== this.holder) this.logger.info('job lease taken', { previous_holder: current.record.holder || null });
    return this.keep(revision === undefined ? undefined : { record, revision });
  }

  private keep(lease: StoredLease | undefined): StoredLease | undefined {
    this.held = lease;
    return lease;
  }

  /** One run under the held lease: recorded as started, renewed while it lasts, aborted when a renewal fails or the lease would lapse. */
  private async runHolding(): Promise<void> {
    const startedAt = this.leaseClock();
    const run = new AbortController();
    const abort = (reason: string) => {
      if (!run.signal.aborted) run.abort(new Error(reason));
    };
    const onStop = () => abort('the job runner is stopping');
    this.stopping.addEventListener('abort', onStop);
    let lapse = setTimeout(() => abort('the job lease lapsed before it could be renewed'), this.leaseMs - this.checkMs);
    let renewing: Promise<unknown> = Promise.resolve();
    const renewals = setInterval(() => {
      const current = this.held;
      if (!current || run.signal.aborted) return;
      renewing = this.renew(current, {})
        .then((renewed) => {
          if (!renewed) return abort('the job lease was taken by another replica');
          clearTimeout(lapse);
          lapse = setTimeout(() => abort('the job lease lapsed before it could be renewed'), this.leaseMs - this.checkMs);
        })
        .catch(() => abort('the job lease could not be renewed'));
    }, this.checkMs);
    try {
      const items = await this.job.run({ now: this.clock(), signal: run.signal, batchSize: this.batchSize });
      this.metrics.ran(this.job.name, items);
      this.more = items >= this.batchSize;
    } catch (error) {
      this.more = false;
      this.metrics.failed(this.job.name);
      if (!run.signal.aborted) this.logger.error('job run failed', { error });
    } finally {
      clearInterval(renewals);
      // A renewal in flight settles before the lease is looked at again.
      await renewing;
      clearTimeout(lapse);
      this.stopping.removeEventListener('abort', onStop);
    }
    // Only a run that was not cut short counts as the period's run: an aborted one is done again by
    // whoever holds the lease next (a failed one waits for the next period, and so does its retry).
    if (run.signal.aborted) {
      this.more = false;
      return;
    }
    const held = this.held;
    if (held) await this.renew(held, { lastRunAt: startedAt });
  }

  /** Extends the held lease (with `changes`); false when another replica took it meanwhile. */
  private async renew(lease: StoredLease, changes: Partial<LeaseRecord>): Promise<boolean> {
    const record: LeaseRecord = { ...lease.record, ...changes, holder: this.holder, expiresAt: this.leaseClock() + this.leaseMs };
    const revision = await this.leases.replace(this.job.name, record, lease.revision);
    this.keep(revision === undefined ? undefined : { record, revision });
    return revision !== undefined;
  }
}
