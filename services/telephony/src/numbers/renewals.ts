// The monthly fees of bought numbers, as a periodic job on one replica at a time: each number whose
// fee is due is charged for the month it is in (one hold per number and month, captured through the
// outbox in the transaction that moves its renewal to the next anniversary). A month the wallet
// cannot pay leaves the number past due; when the grace period is over and the month is still
// unpaid, the number goes back to the platform's carrier and is removed. Every write is conditional
// on the due date it was read with, so a renewal racing another (or a purchase of credits) settles
// a month once; billing cannot be asked, or the carrier cannot take the number back: next run.
import type { PeriodicJob } from '@voice/runtime/jobs';
import type { Logger } from '@voice/runtime/logger';
import type { CarrierDirectory } from '../carriers/directory.js';
import { releaseAt, type NumberTerms } from '../presenter.js';
import type { NumberRecord, RenewalStore } from '../store/store.js';
import { anniversary, monthsElapsed } from '../domain/anniversaries.js';
import { BillingUnreachable, type BillingHolds } from '../billing/holds.js';
import { numberBillingChangedEvent } from './billing-events.js';
import { numberFeeCaptureEvent, numberFeeDescription, numberFeeHoldId, numberFeeHoldSeconds, numberFeeKind } from './fees.js';

export type RenewalOutcome = 'renewed' | 'past_due' | 'released' | 'unchanged';

export interface NumberRenewalsDeps {
  store: RenewalStore;
  holds: BillingHolds;
  carriers: CarrierDirectory;
  terms: NumberTerms;
  checkMs: number;
  wakeRelay(): void;
  logger: Logger;
}

export class NumberRenewals {
  constructor(private readonly deps: NumberRenewalsDeps) {}

  job(): PeriodicJob {
    return { name: 'telephony.number-renewals', periodMs: this.deps.checkMs, run: (run) => this.runOnce(run.now, run.batchSize, run.signal) };
  }

  /** Settles at most `limit` numbers due by `now`; answers how many changed. */
  async runOnce(now: Date, limit: number, signal?: AbortSignal): Promise<number> {
    let changed = 0;
    for (const number of await this.deps.store.dueRenewals(now.toISOString(), limit)) {
      if (signal?.aborted) break;
      const outcome = await this.settle(number, now).catch((error: unknown) => {
        this.deps.logger.warn('number renewal left for the next run', { error, number_id: number.id });
        return 'unchanged' as const;
      });
      if (outcome !== 'unchanged') changed += 1;
    }
    return changed;
  }

  /** One due number: charged for the month `now` is in, else past due, else released after the grace period. */
  async settle(number: NumberRecord, now: Date): Promise<RenewalOutcome> {
    const dueAt = number.renewsAt!;
    const boughtAt = new Date(number.createdAt);
    // The month `now` is in; a renewal that ran late charges that month only, never the ones it missed.
    const month = Math.max(monthsElapsed(boughtAt, new Date(dueAt)), monthsElapsed(boughtAt, now));
    const nextAt = anniversary(boughtAt, month + 1).toISOString();
    const at = now.toISOString();
    const { monthlyUnits } = this.deps.terms;
    if (monthlyUnits === 0) {
      return (await this.deps.store.renewNumber(number.id, dueAt, nextAt, undefined, at)) ? 'renewed' : 'unchanged';
    }
    let answer;
    try {
      answer = await this.deps.holds.authorize({
        workspaceId: number.workspaceId,
        holdId: numberFeeHoldId(number.id, month),
        creditUnits: monthlyUnits,
        kind: numberFeeKind,
        reference: number.id,
        description: numberFeeDescription(number, month),
        expiresInSeconds: numberFeeHoldSeconds,
        requestId: `renewal-${number.id}-${month}`,
      });
    } catch (error) {
      if (error instanceof BillingUnreachable) return 'unchanged';
      throw error;
    }
    if (answer.kind === 'held') {
      const renewed = await this.deps.store.renewNumber(number.id, dueAt, nextAt, numberFeeCaptureEvent(number, month, monthlyUnits, at), at);
      if (!renewed) return 'unchanged';
      this.deps.wakeRelay();
      return 'renewed';
    }
    if (now.getTime() < releaseAt(number, this.deps.terms).getTime()) {
      if (number.pastDueSince) return 'unchanged';
      const marked = await this.deps.store.markPastDue(number.id, dueAt, at, numberBillingChangedEvent('past_due', this.deps.terms, at));
      if (marked) this.deps.wakeRelay();
      if (marked) this.deps.logger.info('number past due: its monthly fee was refused', { number_id: number.id, workspace_id: number.workspaceId });
      return marked ? 'past_due' : 'unchanged';
    }
    // Marked past due first (a run that finds it due after the grace period on its first try too).
    if (!number.pastDueSince && !(await this.deps.store.markPastDue(number.id, dueAt, at, numberBillingChangedEvent('past_due', this.deps.terms, at)))) return 'unchanged';
    // The carrier takes it back first: if it cannot now, the workspace keeps it until the next run.
    await this.deps.carriers.platform().releaseNumber(number.number);
    if (!(await this.deps.store.deleteUnpaidNumber(number.id, dueAt, numberBillingChangedEvent('released', this.deps.terms, at)))) return 'unchanged';
    this.deps.wakeRelay();
    this.deps.logger.info('number released: its monthly fee stayed unpaid past the grace period', { number_id: number.id, workspace_id: number.workspaceId });
    return 'released';
  }
}
