// Fixed-window counters keyed by anything (an account, a client address). The memory store
// serves one gateway; the NATS KV store shares counts between gateway replicas.
import { FixedWindowCounter } from '../middleware/rate-limit.js';

export interface WindowCount {
  count: number;
  resetAt: number;
}

export interface WindowCounter {
  hit(key: string): Promise<WindowCount>;
  close(): Promise<void>;
}

export class MemoryWindowCounter implements WindowCounter {
  private readonly counter: FixedWindowCounter;

  constructor(windowMs: number, clock: () => number = Date.now) {
    this.counter = new FixedWindowCounter(windowMs, clock);
  }

  async hit(key: string): Promise<WindowCount> {
    return this.counter.hit(key);
  }

  async close(): Promise<void> {}
}
