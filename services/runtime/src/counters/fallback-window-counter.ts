// While the shared counter fails (NATS unreachable), requests are counted in this replica's
// memory instead: the limits keep holding (per replica), responses keep their RateLimit headers,
// and an outage of the counter store never becomes an outage of the API. After a failure the
// shared counter rests for a while, so each request does not wait for it to time out again.
import type { WindowCount, WindowCounter } from './window-counter.js';

export interface FallbackWindowCounterOptions {
  /** How long the shared counter rests after a failure; default 5 s. */
  restMs?: number;
  clock?: () => number;
  /** Told of each failure of the shared counter that started a rest. */
  onFailure: (error: unknown) => void;
}

export class FallbackWindowCounter implements WindowCounter {
  private restingUntil = 0;

  constructor(
    private readonly shared: WindowCounter,
    private readonly local: WindowCounter,
    private readonly options: FallbackWindowCounterOptions,
  ) {}

  async hit(key: string): Promise<WindowCount> {
    const clock = this.options.clock ?? Date.now;
    if (clock() < this.restingUntil) return this.local.hit(key);
    try {
      return await this.shared.hit(key);
    } catch (error) {
      this.restingUntil = clock() + (this.options.restMs ?? 5_000);
      this.options.onFailure(error);
      return this.local.hit(key);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.shared.close(), this.local.close()]);
  }
}
