// A read-decide-write step against a record that another writer may change in between (a call, a
// campaign): run again from the read until the revision-checked write finds it as it was read.
const attempts = 10;

/** `step` answers `{done}` when finished, undefined when its write found the record changed. */
export async function retryOnConflict<T>(what: string, step: () => Promise<{ done: T } | undefined>): Promise<T> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const outcome = await step();
    if (outcome) return outcome.done;
  }
  throw new Error(`${what}: it changed on every one of ${attempts} attempts`);
}
