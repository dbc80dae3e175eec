// Working through a sequence with a bounded number of tasks at once: the relay's window of
// publishes awaiting their acks, and a consumer's events being handled side by side, across the
// batches it pulls.

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
  const window = new TaskWindow(limit);
  try {
    for await (const item of items) await window.start(() => work(item));
  } finally {
    await window.settled();
  }
}

/**
 * At most `limit` tasks unsettled at once, fed from any number of sequences one after another:
 * `start` waits for a free slot and starts the task without awaiting it, so a caller can fetch its
 * next batch while the last one's tasks still run. After a task rejects, `start` rejects with that
 * first error (starting nothing more); `settled` waits for every task started and rejects likewise.
 */
export class TaskWindow {
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  constructor(private readonly limit: number) {
    if (!(Number.isInteger(limit) && limit > 0)) throw new RangeError('limit must be a positive integer');
  }

  async start(work: () => Promise<void>): Promise<void> {
    while (this.running.size >= this.limit && !this.failure) await Promise.race(this.running);
    if (this.failure) throw this.failure.error;
    const task: Promise<void> = (async () => work())().then(
      () => void this.running.delete(task),
      (error: unknown) => {
        this.running.delete(task);
        this.failure ??= { error };
      },
    );
    this.running.add(task);
  }

  async settled(): Promise<void> {
    await Promise.all(this.running);
    if (this.failure) throw this.failure.error;
  }
}
