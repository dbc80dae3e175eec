// Reads the platform's state again and again until it is complete or time runs out. A failed read
// counts as "not yet": the timeout decides, and the outcome names the last error.
import { setTimeout as sleep } from 'node:timers/promises';

export interface ReadOutcome {
  /** Reads that succeeded. */
  reads: number;
  /** From the start of the first read to the end of the last. */
  waitedMs: number;
  complete: boolean;
  /** Why the last read failed, if it did (e.g. a 503 while billing does not answer). */
  lastReadError: string | undefined;
}

/** Runs `read` (true once everything awaited is there) every `intervalMs` until it is true or `timeoutSeconds` have passed. */
export async function readUntil(read: () => Promise<boolean>, timeoutSeconds: number, intervalMs: number): Promise<ReadOutcome> {
  const startedAt = Date.now();
  let complete = false;
  let reads = 0;
  let lastReadError: string | undefined;
  for (;;) {
    try {
      complete = await read();
      lastReadError = undefined;
      reads += 1;
    } catch (error) {
      lastReadError = error instanceof Error ? error.message : String(error);
    }
    if (complete || Date.now() - startedAt >= timeoutSeconds * 1000) break;
    await sleep(intervalMs);
  }
  return { reads, waitedMs: Date.now() - startedAt, complete, lastReadError };
}
