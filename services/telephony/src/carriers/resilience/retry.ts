// Bounded retries with exponential backoff and jitter.
import { setTimeout as sleepFor } from 'node:timers/promises';

export interface RetrySettings {
  /** Attempts after the first; 0 disables retrying. */
  retries: number;
  /** The first backoff; each further one doubles. */
  baseDelayMs: number;
  /** A number in [0, 1); Math.random by default. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The pause before retry number `retry` (0 for the first): "equal jitter", half of the exponential
 * step fixed and half random, so retries keep backing off yet callers that failed together spread out.
 */
export function backoffDelayMs(retry: number, baseDelayMs: number, random: () => number = Math.random): number {
  const step = baseDelayMs * 2 ** retry;
  return Math.round(step / 2 + random() * (step / 2));
}

/** Runs `attempt` until it resolves, `shouldRetry` says no, or the retries are spent; then settles as the last attempt did. */
export async function withRetries<T>(attempt: () => Promise<T>, shouldRetry: (error: unknown) => boolean, settings: RetrySettings): Promise<T> {
  const sleep = settings.sleep ?? ((ms: number) => sleepFor(ms));
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (retry >= settings.retries || !shouldRetry(error)) throw error;
      await sleep(backoffDelayMs(retry, settings.baseDelayMs, settings.random));
    }
  }
}
