// Fair-use rate limit per account (workspace): a fixed window per plan, with the RateLimit-*
// headers on every authenticated response and Retry-After on a 429. The counter is shared
// between gateway replicas when it lives in NATS KV.
import type { RequestHandler } from 'express';
import { authOf } from '../auth/auth-context.js';
import type { WindowCounter } from '../counters/window-counter.js';
import { HttpError } from '../errors/http-error.js';

export interface RateLimitPolicy {
  /** Requests per window by plan; a plan not listed gets the smallest limit. */
  perPlan: Readonly<Record<string, number>>;
  windowSeconds: number;
}

interface Window {
  startedAt: number;
  count: number;
}

export class FixedWindowCounter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly windowMs: number, private readonly clock: () => number = Date.now) {}

  /** Counts one request for the account and returns the window's state after it. */
  hit(account: string): { count: number; resetAt: number } {
    const now = this.clock();
    let window = this.windows.get(account);
    if (!window || now - window.startedAt >= this.windowMs) {
      window = { startedAt: now - (now % this.windowMs), count: 0 };
      this.windows.set(account, window);
      if (this.windows.size > 100_000) this.sweep(now);
    }
    window.count += 1;
    return { count: window.count, resetAt: window.startedAt + this.windowMs };
  }

  private sweep(now: number): void {
    for (const [account, window] of this.windows) if (now - window.startedAt >= this.windowMs) this.windows.delete(account);
  }
}

export function rateLimit(policy: RateLimitPolicy, counter: WindowCounter, clock: () => number = Date.now): RequestHandler {
  const fallback = Math.min(...Object.values(policy.perPlan));
  return (_req, res, next) => {
    const { workspace } = authOf(res);
    const limit = policy.perPlan[workspace.plan] ?? fallback;
    counter.hit(workspace.id).then(({ count, resetAt }) => {
      const resetSeconds = Math.max(1, Math.ceil((resetAt - clock()) / 1000));
      res.setHeader('RateLimit-Limit', String(limit));
      res.setHeader('RateLimit-Remaining', String(Math.max(0, limit - count)));
      res.setHeader('RateLimit-Reset', String(resetSeconds));
      if (count <= limit) return next();
      next(
        new HttpError('rate_limited', `rate limit of ${limit} requests per ${policy.windowSeconds} s exceeded; retry after ${resetSeconds} s`, {
          headers: { 'Retry-After': String(resetSeconds) },
        }),
      );
    }, next);
  };
}
