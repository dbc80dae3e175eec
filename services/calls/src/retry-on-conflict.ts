// A read-decide-write step against a call that another writer may change in between: run again
// from the read until the write finds the call as it was read.
const attempts = 10;

/** `step` answers `{done}` when finished, undefined when its write found the call changed. */
export async function retryOnConflict<T>(what: string, step: () => Promise<{ done: T } | undefined>): Promise<T> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const outcome = await step();
    if (outcome) return outcome.done;
  }
  throw new Error(`${what}: the call changed on every one of ${attempts} attempts`);
}
