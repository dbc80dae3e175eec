// Bounded shutdown. Stopping parts let work in flight finish, but work that waits on another
// system (a database, NATS) may wait for that system's timeouts (MongoDB's server selection:
// 30 s). So a stopping part waits for such work at most `shutdownWaitMs`, then lets it go: the
// platform's writes are conditional and its events at least once, so what the work left undone is
// done by another replica or the next start. And a process exits at the latest
// VOICE_SHUTDOWN_TIMEOUT_SECONDS after SIGTERM (plus the gateway's drain delay), whatever is left.
import { readInt, type Env } from './config/env.js';

/** How long a stopping part waits for its work in flight before it lets go of it. */
export const shutdownWaitMs = 2_000;

/** Resolves once `work` settled (true) or `ms` passed (false), whichever comes first; never rejects. */
export async function settledWithin(work: Promise<unknown> | undefined, ms: number = shutdownWaitMs): Promise<boolean> {
  if (!work) return true;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** After SIGTERM, the gateway keeps serving this long (with /readyz at 503) before it closes its listener. */
export const readDrainDelayMs = (env: Env): number => readInt(env, 'VOICE_DRAIN_DELAY_SECONDS', 0, { min: 0, max: 60 }) * 1000;

/**
 * The longest a process takes from SIGTERM to its exit: VOICE_SHUTDOWN_TIMEOUT_SECONDS (the gateway's
 * 10 s for requests in flight, with margin), after the drain delay where the process runs the gateway.
 */
export function readShutdownDeadlineMs(env: Env, runsGateway: boolean): number {
  const timeoutMs = readInt(env, 'VOICE_SHUTDOWN_TIMEOUT_SECONDS', 15, { min: 1, max: 300 }) * 1000;
  return timeoutMs + (runsGateway ? readDrainDelayMs(env) : 0);
}
