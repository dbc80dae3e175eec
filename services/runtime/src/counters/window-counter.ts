// Fixed-window counters keyed by anything (an account, a client address). The memory store
// serves one gateway; the NATS KV store shares counts between gateway replicas.
export interface WindowCount {
  count: number;
  resetAt: number;
}

export interface WindowCounter {
  hit(key: string): Promise<WindowCount>;
  close(): Promise<void>;
}

export class MemoryWindowCounter implements WindowCounter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(private readonly windowMs: number, private readonly clock: () => number = Date.now) {}

  async hit(key: string): Promise<WindowCount> {
    const now = this.clock();
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.windowMs) {
      window = { startedAt: now - (now % this.windowMs), count: 0 };
      this.windows.set(key, window);
      if (this.windows.size > 100_000) this.sweep(now);
    }
    window.count += 1;
    return { count: window.count, resetAt: window.startedAt + this.windowMs };
  }

  async close(): Promise<void> {}

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (now - window.startedAt >= this.windowMs) this.windows.delete(key);
  }
}
