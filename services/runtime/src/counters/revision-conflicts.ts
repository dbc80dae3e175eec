// Compare-and-set loops on a shared entry: an attempt that lost the race to another replica is
// read and tried again after a short random backoff, so one of the contenders wins each round.
const maxBackoffMs = 20;

/** Answered by an attempt that lost a compare-and-set to another writer. */
export const revisionConflict = Symbol('revision conflict');

/**
 * Repeats `attempt` while it answers `revisionConflict`; after `contendedForMs` of conflicts answers
 * `contended()` instead. Errors of the attempt (the store unreachable) are thrown at once.
 */
export async function retryRevisionConflicts<T>(attempt: () => Promise<T | typeof revisionConflict>, contendedForMs: number, contended: () => T): Promise<T> {
  const giveUpAt = performance.now() + contendedForMs;
  for (let round = 0; ; round += 1) {
    const outcome = await attempt();
    if (outcome !== revisionConflict) return outcome;
    if (performance.now() >= giveUpAt) return contended();
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(maxBackoffMs, 2 ** round)));
  }
}
