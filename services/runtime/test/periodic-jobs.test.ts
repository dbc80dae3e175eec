// Periodic jobs on leases, run against the in-process lease store and against a NATS JetStream
// key-value bucket on the real server at 127.0.0.1:4222: two runners never run one job at once, a
// dead holder's lease is taken over once it expired, a stop hands the lease over at once, a full
// batch is followed by another run, and a stop aborts the run in flight.
import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import { Registry } from 'prom-client';
import { createLogger } from '../src/logger.js';
import type { LeaseRecord, LeaseStore, StoredLease } from '../src/jobs/lease-store.js';
import { MemoryLeaseStore } from '../src/jobs/memory-lease-store.js';
import { NatsLeaseStore } from '../src/jobs/nats-lease-store.js';
import { PeriodicJobs, type JobRun, type PeriodicJob } from '../src/jobs/periodic-jobs.js';

const natsUrl = 'nats://127.0.0.1:4222';
const silent = createLogger({ service: 'jobs-test', level: 'silent' });
const leaseMs = 600;

async function waitFor(what: string, condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A lease store that fails every operation once severed: a holder whose process died or lost its network. */
class SeverableLeases implements LeaseStore {
  severed = false;
  constructor(private readonly inner: LeaseStore) {}
  private check(): void {
    if (this.severed) throw new Error('connection lost');
  }
  async read(job: string): Promise<StoredLease | undefined> {
    this.check();
    return this.inner.read(job);
  }
  async create(job: string, record: LeaseRecord): Promise<number | undefined> {
    this.check();
    return this.inner.create(job, record);
  }
  async replace(job: string, record: LeaseRecord, revision: number): Promise<number | undefined> {
    this.check();
    return this.inner.replace(job, record, revision);
  }
  async close(): Promise<void> {}
}

interface LeaseAdapter {
  /** A lease store as one replica sees it; every call of one test shares the same leases. */
  open(): Promise<LeaseStore>;
  reset(): Promise<void>;
  cleanup(): Promise<void>;
}

function memoryAdapter(): LeaseAdapter {
  let shared = new MemoryLeaseStore();
  return {
    open: async () => shared,
    reset: async () => {
      shared = new MemoryLeaseStore();
    },
    cleanup: async () => {},
  };
}

function natsAdapter(): LeaseAdapter {
  let bucket = '';
  const buckets: string[] = [];
  const opened: LeaseStore[] = [];
  return {
    open: async () => {
      const store = await NatsLeaseStore.connect(natsUrl, bucket, 'jobs-test');
      opened.push(store);
      return store;
    },
    reset: async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
      bucket = `jobs_test_${randomUUID().replace(/-/g, '')}`;
      buckets.push(bucket);
    },
    cleanup: async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
      const connection = await connect({ servers: natsUrl });
      const manager = await connection.jetstreamManager();
      for (const name of buckets) await manager.streams.delete(`KV_${name}`).catch(() => undefined);
      await connection.close();
    },
  };
}

/** A job that records its runs and how many of them overlapped, across every runner given it. */
function recordingJob(options: { periodMs: number; name: string; work?: (run: JobRun) => Promise<number> }) {
  let running = 0;
  const record = { runs: [] as { holder: string; start: number; end?: number; now: Date }[], maxConcurrent: 0 };
  const jobFor = (holder: () => string): PeriodicJob => ({
    name: options.name,
    periodMs: options.periodMs,
    batchSize: 10,
    run: async (run) => {
      running += 1;
      record.maxConcurrent = Math.max(record.maxConcurrent, running);
      const entry = { holder: holder(), start: Date.now(), now: run.now } as (typeof record.runs)[number];
      record.runs.push(entry);
      try {
        // Some work that yields to the event loop, so overlapping runs would show.
        return options.work ? await options.work(run) : await new Promise<number>((resolve) => setTimeout(() => resolve(1), 15));
      } finally {
        entry.end = Date.now();
        running -= 1;
      }
    },
  });
  return { record, jobFor };
}

function leaseBehaviour(adapter: LeaseAdapter): void {
  const runners: PeriodicJobs[] = [];
  const runner = (leases: LeaseStore, extra: { clock?: () => Date; registry?: Registry } = {}) => {
    const started = new PeriodicJobs({ leases, logger: silent, leaseMs, registry: extra.registry ?? new Registry(), clock: extra.clock });
    runners.push(started);
    return started;
  };

  beforeEach(() => adapter.reset());
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((started) => started.stop()));
  });
  afterAll(() => adapter.cleanup());

  it('never runs a job on two runners at once, and runs it every period', async () => {
    const { record, jobFor } = recordingJob({ name: 'test.overlap', periodMs: 5 });
    const first = runner(await adapter.open());
    const second = runner(await adapter.open());
    first.start([jobFor(() => first.holder)]);
    second.start([jobFor(() => second.holder)]);
    await waitFor('20 runs', () => record.runs.filter((run) => run.end).length >= 20);
    expect(record.maxConcurrent).toBe(1);
    const ordered = record.runs.filter((run) => run.end);
    for (let index = 1; index < ordered.length; index += 1) expect(ordered[index]!.start).toBeGreaterThanOrEqual(ordered[index - 1]!.end!);
  });

  it('hands the lease of a dead holder to another runner once it expired, which runs the interrupted run again', async () => {
    const severable = new SeverableLeases(await adapter.open());
    let firstAborted: number | undefined;
    const { record, jobFor } = recordingJob({
      name: 'test.takeover',
      periodMs: 60 * 60 * 1000,
      // The holder's run lasts until it is told to stop.
      work: (run) =>
        new Promise<number>((resolve) =>
          run.signal.addEventListener('abort', () => {
            firstAborted ??= Date.now();
            resolve(0);
          }),
        ),
    });
    const first = runner(severable);
    first.start([jobFor(() => first.holder)]);
    await waitFor('the first run', () => record.runs.length === 1);
    const second = runner(await adapter.open());
    second.start([jobFor(() => second.holder)]);
    // The second runner waits while the first holds the lease (renewed several times over).
    await new Promise((resolve) => setTimeout(resolve, leaseMs * 2));
    expect(record.runs).toHaveLength(1);
    const diedAt = Date.now();
    severable.severed = true;
    await waitFor('the takeover', () => record.runs.length === 2);
    expect(record.runs[1]!.holder).toBe(second.holder);
    // Not before the dead holder's last lease expired, and never while its run went on.
    expect(record.runs[1]!.start).toBeGreaterThanOrEqual(diedAt);
    expect(firstAborted).toBeDefined();
    expect(record.runs[1]!.start).toBeGreaterThanOrEqual(firstAborted!);
    expect(record.maxConcurrent).toBe(1);
  });

  it('hands the lease over at once on stop, and the next holder keeps the period', async () => {
    const { record, jobFor } = recordingJob({ name: 'test.handover', periodMs: 60 * 60 * 1000 });
    const first = runner(await adapter.open());
    first.start([jobFor(() => first.holder)]);
    await waitFor('the first run', () => record.runs.length === 1 && record.runs[0]!.end !== undefined);
    const second = runner(await adapter.open());
    second.start([jobFor(() => second.holder)]);
    await first.stop();
    // The second runner now holds the lease, yet the job ran within the period: it does not run again.
    const leases = await adapter.open();
    let holder: string | undefined;
    const deadline = Date.now() + 10_000;
    while (holder !== second.holder && Date.now() < deadline) {
      holder = (await leases.read('test.handover'))?.record.holder;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(holder).toBe(second.holder);
    expect(record.runs).toHaveLength(1);
  });

  it('runs again at once after a full batch, and gives each run the injected clock', async () => {
    let backlog = 35;
    const moved = new Date('2031-05-17T10:00:00.000Z');
    const { record, jobFor } = recordingJob({
      name: 'test.batches',
      periodMs: 60 * 60 * 1000,
      work: async (run) => {
        const handled = Math.min(backlog, run.batchSize);
        backlog -= handled;
        return handled;
      },
    });
    const registry = new Registry();
    const only = runner(await adapter.open(), { clock: () => moved, registry });
    only.start([jobFor(() => only.holder)]);
    // 10 + 10 + 10 + 5: the fourth run is not full, so no fifth comes within the hour.
    await waitFor('the backlog', () => backlog === 0 && record.runs.length === 4 && record.runs[3]!.end !== undefined);
    expect(record.runs.every((run) => run.now.getTime() === moved.getTime())).toBe(true);
    const metrics = await registry.getMetricsAsJSON();
    const value = (name: string) => metrics.find((metric) => metric.name === name)?.values.find((entry) => entry.labels.job === 'test.batches')?.value;
    expect(value('periodic_job_runs_total')).toBe(4);
    expect(value('periodic_job_items_total')).toBe(35);
    expect(value('periodic_job_failures_total') ?? 0).toBe(0);
  });

  it('counts a failed run and aborts the run in flight on stop', async () => {
    let calls = 0;
    const registry = new Registry();
    const failing: PeriodicJob = {
      name: 'test.failing',
      periodMs: 1,
      run: async () => {
        calls += 1;
        throw new Error('boom');
      },
    };
    let aborted = false;
    const waiting: PeriodicJob = {
      name: 'test.waiting',
      periodMs: 60 * 60 * 1000,
      run: (run) =>
        new Promise<number>((resolve) =>
          run.signal.addEventListener('abort', () => {
            aborted = true;
            resolve(0);
          }),
        ),
    };
    const only = runner(await adapter.open(), { registry });
    only.start([failing, waiting]);
    await waitFor('two failed runs', () => calls >= 2);
    await only.stop();
    expect(aborted).toBe(true);
    const metrics = await registry.getMetricsAsJSON();
    const failures = metrics.find((metric) => metric.name === 'periodic_job_failures_total')?.values.find((entry) => entry.labels.job === 'test.failing');
    expect(failures?.value).toBeGreaterThanOrEqual(2);
  });
}

describe('periodic jobs on in-process leases', () => leaseBehaviour(memoryAdapter()));
describe('periodic jobs on a NATS key-value bucket', () => leaseBehaviour(natsAdapter()));
