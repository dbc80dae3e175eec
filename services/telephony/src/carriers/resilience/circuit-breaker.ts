// A circuit breaker per carrier account: after repeated outages it stops sending requests for a
// cooldown, then lets a single trial through to learn whether the carrier is back.

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerSettings {
  /** Consecutive failed calls that open the circuit; default 5. */
  failureThreshold?: number;
  /** How long an open circuit refuses calls before a trial; default 30 s. */
  cooldownMs?: number;
  /** The clock (milliseconds); Date.now by default. */
  now?: () => number;
}

/** The circuit is open: the call was refused without being attempted. */
export class CircuitOpen extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`requests are paused after repeated failures; next attempt in ${Math.ceil(retryAfterMs / 1000)} s`);
    this.name = 'CircuitOpen';
  }
}

export class CircuitBreaker {
  private readonly failureThreshold: number;
  private readonly cooldownMs: number;
  private readonly now: () => number;
  private consecutiveFailures = 0;
  private openedAt: number | undefined;
  private trialInFlight = false;

  constructor(settings: CircuitBreakerSettings = {}) {
    this.failureThreshold = settings.failureThreshold ?? 5;
    this.cooldownMs = settings.cooldownMs ?? 30_000;
    this.now = settings.now ?? Date.now;
  }

  get state(): CircuitState {
    if (this.openedAt === undefined) return 'closed';
    return this.trialInFlight || this.now() - this.openedAt >= this.cooldownMs ? 'half-open' : 'open';
  }

  /**
   * Runs the call unless the circuit refuses it (CircuitOpen). A rejection for which `isOutage` is
   * true counts as a failure; anything else (a result, or an error that shows the other side
   * answered) counts as a success.
   */
  async run<T>(call: () => Promise<T>, isOutage: (error: unknown) => boolean): Promise<T> {
    this.admit();
    let result: T;
    try {
      result = await call();
    } catch (error) {
      if (isOutage(error)) this.recordFailure();
      else this.recordSuccess();
      throw error;
    }
    this.recordSuccess();
    return result;
  }

  private admit(): void {
    if (this.openedAt === undefined) return;
    const waited = this.now() - this.openedAt;
    if (waited < this.cooldownMs) throw new CircuitOpen(this.cooldownMs - waited);
    // Half-open: one trial at a time; the others are refused until its outcome is known.
    if (this.trialInFlight) throw new CircuitOpen(0);
    this.trialInFlight = true;
  }

  private recordSuccess(): void {
    this.consecutiveFailures = 0;
    this.openedAt = undefined;
    this.trialInFlight = false;
  }

  private recordFailure(): void {
    this.consecutiveFailures++;
    if (this.trialInFlight || this.consecutiveFailures >= this.failureThreshold) {
      this.openedAt = this.now();
      this.trialInFlight = false;
    }
  }
}

/** The breakers of every carrier account, so adapter instances for the same account share one. */
export class CircuitBreakers {
  private readonly breakers = new Map<string, CircuitBreaker>();

  constructor(private readonly settings: CircuitBreakerSettings = {}) {}

  breakerFor(key: string): CircuitBreaker {
    let breaker = this.breakers.get(key);
    if (!breaker) {
      breaker = new CircuitBreaker(this.settings);
      this.breakers.set(key, breaker);
    }
    return breaker;
  }
}
