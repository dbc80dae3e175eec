// Registration, authorization and token exchange are limited per client address (see
// proxies/client-address.ts); a limited request is 429 with Retry-After, in the OAuth error format.
import type { RequestHandler } from 'express';
import { windowLimit, type WindowCounter } from '@voice/runtime/counters';
import { clientAddress } from '../proxies/client-address.js';
import { OAuthError, sendOAuthError } from './oauth-error.js';

export function addressRateLimit(options: { endpoint: string; limit: number; counter: WindowCounter; clock?: () => number }): RequestHandler {
  const clock = options.clock ?? Date.now;
  return (req, res, next) => {
    options.counter.hit(`${options.endpoint}.${clientAddress(req)}`).then((window) => {
      const { limited, retryAfterSeconds } = windowLimit(window, options.limit, clock());
      if (!limited) return next();
      const retryAfter = String(retryAfterSeconds);
      sendOAuthError(res, new OAuthError('slow_down', `too many ${options.endpoint} requests from this address; retry after ${retryAfter} s`, 429, { 'Retry-After': retryAfter }));
    }, next);
  };
}
