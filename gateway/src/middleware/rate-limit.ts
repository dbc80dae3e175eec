// Fair-use rate limit per account (workspace): a fixed window per plan, with the RateLimit-*
// headers on every authenticated response and Retry-After on a 429. The counter is shared
// between gateway replicas when it lives in NATS KV.
import type { RequestHandler } from 'express';
import { authOf } from '../auth/auth-context.js';
import { windowLimit, type WindowCounter } from '@voice/runtime/counters';
import { HttpError } from '../errors/http-error.js';

export interface RateLimitPolicy {
  /** Requests per window by plan; a plan not listed gets the smallest limit. */
  perPlan: Readonly<Record<string, number>>;
  windowSeconds: number;
}

export function rateLimit(policy: RateLimitPolicy, counter: WindowCounter, clock: () => number = Date.now): RequestHandler {
  const fallback = Math.min(...Object.values(policy.perPlan));
  return (_req, res, next) => {
    const { workspace } = authOf(res);
    const limit = policy.perPlan[workspace.plan] ?? fallback;
    counter.hit(workspace.id).then((window) => {
      const { limited, remaining, retryAfterSeconds } = windowLimit(window, limit, clock());
      res.setHeader('RateLimit-Limit', String(limit));
      res.setHeader('RateLimit-Remaining', String(remaining));
      res.setHeader('RateLimit-Reset', String(retryAfterSeconds));
      if (!limited) return next();
      next(
        new HttpError('rate_limited', `rate limit of ${limit} requests per ${policy.windowSeconds} s exceeded; retry after ${retryAfterSeconds} s`, {
          headers: { 'Retry-After': String(retryAfterSeconds) },
        }),
      );
    }, next);
  };
}
