// The scheduling skeleton of a background relay: run a pass, wait, run again; run at once when
// woken; go round once more when woken during a pass; stop by letting the pass in flight settle.
// What a pass does, how long to wait after it and whether a wake may cut a wait short are the
// owner's. A failing pass never escapes the loop: the owner hears of it and picks the next wait.
import { settledWithin } from './shutdown.js';

/** How a run of passes ended: handed to the owner to pick the pause before the next run. */
export type PassOutcome = { failed: false } | { failed: true; error: unknown };

export interface PollingLoopOptions {
  /** The work of one pass. */
  pass: () => Promise<unknown>;
  /**
   * The pause before the next run, given how the last pass ended (log a failure here). Asked after
   * every run, also one ended by `stop()`, so the owner's own accounting stays true.
   */
  delayMs: (outcome: PassOutcome) => number;
  /**
   * Asked when `wake()` comes while the loop waits between runs: false keeps the wait (a back-off
   * after failures, say). A wake during a pass always leads to one more pass. Default: always true.
   */
  wakeCutsWait?: () => boolean;
}

export class PollingLoop {
  private started = false;
  private stopping = false;
  private woken = false;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;

  constructor(private readonly options: PollingLoopOptions) {}

  /** True once `stop()` was called (started or not); a pass should end early when it sees it. */
  get stopped(): boolean {
    return this.stopping;
  }

  /** Runs the first pass now and keeps running; does nothing when started or stopped before. */
  start(): void {
    if (this.started || this.stopping) return;
    this.started = true;
    this.cycle();
  }

  /** Runs a pass now, or once more after the one in flight; nothing before start or after stop. */
  wake(): void {
    if (!this.started || this.stopping) return;
    if (this.inFlight) {
      this.woken = true;
      return;
    }
    if (this.options.wakeCutsWait && !this.options.wakeCutsWait()) return;
    clearTimeout(this.timer);
    this.cycle();
  }

  /**
   * Stops scheduling passes; resolves once the pass in flight, if any, is settled, or after
   * `shutdownWaitMs` when it waits on a system that does not answer (then false).
   */
  async stop(): Promise<boolean> {
    this.stopping = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    return settledWithin(this.inFlight);
  }

  private cycle(): void {
    this.timer = undefined;
    this.inFlight = this.run().finally(() => {
      this.inFlight = undefined;
      // A wake that came after the last pass's check but before the run settled (the owner's
      // delayMs, a writer committing in between) found a pass "in flight": honour it now.
      if (this.woken) {
        this.woken = false;
        this.wake();
      }
    });
  }

  private async run(): Promise<void> {
    let outcome: PassOutcome = { failed: false };
    try {
      do {
        this.woken = false;
        await this.options.pass();
      } while (this.woken && !this.stopping);
    } catch (error) {
      // A failure ends the run: a wake during the failed pass does not cut the owner's delay.
      this.woken = false;
      outcome = { failed: true, error };
    }
    const delay = this.options.delayMs(outcome);
    if (this.stopping) return;
    this.timer = setTimeout(() => this.cycle(), delay);
    // The loop alone must not keep a process alive that is otherwise done.
    this.timer.unref();
  }
}
