// Gives back the reservations of holds that outlived their expiry, neither captured nor released
// (their holder is gone, or forgot them), so a wallet's available balance never stays short for a
// use that will not come. Each release is conditional on the hold being open and expired, so two
// sweeps (or a sweep racing a capture) settle a hold once.
import type { Logger } from '@voice/runtime';
import type { BillingStore } from './store/store.js';

const batchSize = 200;

export class HoldSweeper {
  constructor(private readonly deps: { store: BillingStore; logger: Logger }) {}

  /** Releases every hold expired by `now`, a batch at a time; ends early (between holds) when `signal` aborts. Answers how many it released. */
  async runOnce(now: Date, signal?: AbortSignal): Promise<number> {
    const at = now.toISOString();
    let released = 0;
    for (;;) {
      const expired = await this.deps.store.expiredHolds(at, batchSize);
      let progressed = false;
      for (const key of expired) {
        if (signal?.aborted) return released;
        const outcome = await this.deps.store.release({ ...key, now: at, expiredOnly: true });
        if (outcome.kind === 'released') released += 1;
        // Settled meanwhile (captured, released) also leaves the expired list.
        progressed ||= outcome.kind !== 'not_expired';
      }
      if (expired.length < batchSize || !progressed) break;
    }
    if (released > 0) this.deps.logger.info('expired holds released', { released });
    return released;
  }
}
