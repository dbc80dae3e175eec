// A window's count held against its limit: the one rule for "limited until" and "retry after",
// shared by the gateway's rate limits, caller-ID code limits and the dialer's calls per minute.
import type { WindowCount } from './window-counter.js';

export interface WindowLimit {
  /** True once the count is past the limit: this hit is refused. */
  limited: boolean;
  /** Hits left in the window after this one (0 once limited). */
  remaining: number;
  /** Whole seconds until the window resets, at least 1: the value of RateLimit-Reset and Retry-After. */
  retryAfterSeconds: number;
  /** When a refused caller may try again (ms since the epoch): `retryAfterSeconds` from `now`. */
  limitedUntil: number;
}

/** The window's count against `limit` at `now`. */
export function windowLimit(window: WindowCount, limit: number, now: number): WindowLimit {
  const retryAfterSeconds = Math.max(1, Math.ceil((window.resetAt - now) / 1000));
  return { limited: window.count > limit, remaining: Math.max(0, limit - window.count), retryAfterSeconds, limitedUntil: now + retryAfterSeconds * 1000 };
}
