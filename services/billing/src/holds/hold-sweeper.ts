// Gives back the reservations of holds that outlived their expiry, neither captured nor released
// (their holder is gone, or forgot them), so a wallet's available balance never stays short for a
// use that will not come. Runs as a periodic job on one billing replica at a time; each release is
// still conditional on the hold being open and expired, so a sweep racing a capture (or a second
// sweep) settles a hold once.
import type { PeriodicJob } from '@voice/runtime/jobs';
import type { Logger } from '@voice/runtime/logger';
import type { ExpiredHoldStore, HoldStore } from '../store/store.js';

/** How often expired holds are looked for: a hold outlives its expiry by about this at most. */
export const holdSweepPeriodMs = 30_000;

export class HoldSweeper {
  constructor(private readonly deps: { store: ExpiredHoldStore & HoldStore; logger: Logger }) {}

  /** Releases at most `limit` holds expired by `now`; ends early (between holds) when `signal` aborts. Answers how many it released. */
  async runOnce(now: Date, limit: number, signal?: AbortSignal): Promise<number> {
    const at = now.toISOString();
    let released = 0;
    for (const key of await this.deps.store.expiredHolds(at, limit)) {
      if (signal?.aborted) break;
      const outcome = await this.deps.store.release({ ...key, now: at, expiredOnly: true });
      if (outcome.kind === 'released') released += 1;
    }
    if (released > 0) this.deps.logger.info('expired holds released', { released });
    return released;
  }

  /** The sweep as billing's periodic job. */
  job(): PeriodicJob {
    return { name: 'billing.expired-holds', periodMs: holdSweepPeriodMs, run: (run) => this.runOnce(run.now, run.batchSize, run.signal) };
  }
}
