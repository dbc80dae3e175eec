// Working through a sequence with a bounded number of tasks at once: the relay's window of
// publishes awaiting their acks, and a consumer's events being handled side by side.

/**
 * Starts `work` for each item in the sequence's order, with at most `limit` unsettled at once.
 * After the first rejection it takes no further item, waits for the tasks already started and
 * rejects with that first error; otherwise it resolves once every task has settled.
 */
export async function forEachConcurrently<T>(
  items: Iterable<T> | AsyncIterable<T>,
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  if (!(Number.isInteger(limit) && limit > 0)) throw new RangeError('limit must be a positive integer');
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  for await (const item of items) {
    if (failure) break;
    const task: Promise<void> = (async () => work(item))().then(
      () => void running.delete(task),
      (error: unknown) => {
        running.delete(task);
        failure ??= { error };
      },
    );
    running.add(task);
    while (running.size >= limit && !failure) await Promise.race(running);
    if (failure) break;
  }
  await Promise.all(running);
  if (failure) throw failure.error;
}
