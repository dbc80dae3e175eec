// When a failed delivery is tried again: exponential backoff with full jitter in its upper half,
// for at most three days; an endpoint that has failed for three days is disabled.
import { webhookRetryWindowDays } from '@voice/contracts/webhooks';

export const retryWindowMs = webhookRetryWindowDays * 24 * 3600_000;

/** The first retry waits about this long, doubling per attempt. */
const firstRetryMs = 30_000;
/** Doubling stops here, so a receiver that recovers hears from us within the hour. */
const longestRetryMs = 3600_000;

/**
 * The wait after failed attempt number `attempts` (1 for the first): half the exponential delay
 * plus a random share of the other half, so receivers failing together are not retried together.
 */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const exponential = Math.min(firstRetryMs * 2 ** Math.min(Math.max(attempts - 1, 0), 20), longestRetryMs);
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/** True once an endpoint failing since `failingSince` has failed long enough to be disabled. */
export const failedTooLong = (failingSince: string | null, now: Date): boolean =>
  failingSince !== null && now.getTime() - Date.parse(failingSince) >= retryWindowMs;
