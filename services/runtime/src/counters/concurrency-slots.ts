// Slots of a bounded concurrency shared by a service's replicas (a campaign's max_concurrent calls,
// across its dialers). A group's holders live in one entry changed only by compare-and-set on its
// revision, so two replicas never both take its last slot, and a lowered limit holds as soon as
// enough holders leave. A holder leaves when its work ends (release); one whose owner died without
// releasing is reclaimed once the group is full and the service disowns it (`stillHeld`), after a
// grace period that covers the moment between taking a slot and recording the work it is for.
import { PerKeyQueue } from './per-key-queue.js';
import { retryRevisionConflicts, revisionConflict } from './revision-conflicts.js';

/** Each holder with the time it took its slot (epoch ms). */
export type SlotHolders = Record<string, number>;

/** Where the groups' holders are kept: a replica's memory or a NATS KV bucket. */
export interface SlotTable {
  read(group: string): Promise<{ holders: SlotHolders; revision: number | undefined }>;
  /** Writes when the group is still at `revision` (undefined: it has no entry); answers false when another writer came first. */
  write(group: string, holders: SlotHolders, revision: number | undefined): Promise<boolean>;
  close(): Promise<void>;
}

export interface ConcurrencySlotsOptions {
  /** Whether the holder's work still runs; false frees its slot. Asked only when the group is full, of holders past the grace period. */
  stillHeld: (group: string, holder: string) => Promise<boolean>;
  /** Default 30 s. */
  graceMs?: number;
  clock?: () => number;
}

/**
 * How long a take or release keeps losing races for one group before it gives up: a take answers
 * "no slot" (the work waits and tries again), a release throws (its caller retries it).
 */
const contendedForMs = 5_000;

export class ConcurrencySlots {
  private readonly perGroup = new PerKeyQueue();

  constructor(
    private readonly table: SlotTable,
    private readonly options: ConcurrencySlotsOptions,
  ) {}

  /** Takes one of the group's `limit` slots for the holder; true when it has one (taken now or before). */
  acquire(group: string, holder: string, limit: number): Promise<boolean> {
    return this.perGroup.run(group, () =>
      retryRevisionConflicts(
        async () => {
          const { holders, revision } = await this.table.read(group);
          if (holder in holders) return true;
          const kept = Object.keys(holders).length >= limit ? await this.withoutDisowned(group, holders) : holders;
          if (Object.keys(kept).length >= limit) {
            // Reclaimed slots are written back even when none is left for this holder.
            if (kept !== holders && !(await this.table.write(group, kept, revision))) return revisionConflict;
            return false;
          }
          return (await this.table.write(group, { ...kept, [holder]: this.now() }, revision)) ? true : revisionConflict;
        },
        contendedForMs,
        () => false,
      ),
    );
  }

  /** Frees the holder's slot; nothing when it holds none. */
  release(group: string, holder: string): Promise<void> {
    return this.perGroup.run(group, () =>
      retryRevisionConflicts(
        async () => {
          const { holders, revision } = await this.table.read(group);
          if (!(holder in holders)) return undefined;
          const { [holder]: _released, ...rest } = holders;
          return (await this.table.write(group, rest, revision)) ? undefined : revisionConflict;
        },
        contendedForMs,
        () => {
          throw new Error(`releasing a slot of ${group} lost to other writers for ${contendedForMs} ms`);
        },
      ),
    );
  }

  /** The group's holders now, for operators and tests. */
  async holders(group: string): Promise<string[]> {
    return Object.keys((await this.table.read(group)).holders);
  }

  close(): Promise<void> {
    return this.table.close();
  }

  /** The holders less those past the grace period whose work the service says has ended. */
  private async withoutDisowned(group: string, holders: SlotHolders): Promise<SlotHolders> {
    const graceEndedBefore = this.now() - (this.options.graceMs ?? 30_000);
    const verdicts = await Promise.all(
      Object.entries(holders).map(async ([holder, since]) => [holder, since, since > graceEndedBefore || (await this.options.stillHeld(group, holder))] as const),
    );
    if (verdicts.every(([, , held]) => held)) return holders;
    return Object.fromEntries(verdicts.filter(([, , held]) => held).map(([holder, since]) => [holder, since]));
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }
}

/** The slots of one process (the platform embedded without NATS). */
export class MemorySlotTable implements SlotTable {
  private readonly groups = new Map<string, { holders: SlotHolders; revision: number }>();

  async read(group: string): Promise<{ holders: SlotHolders; revision: number | undefined }> {
    const entry = this.groups.get(group);
    return { holders: { ...entry?.holders }, revision: entry?.revision };
  }

  async write(group: string, holders: SlotHolders, revision: number | undefined): Promise<boolean> {
    const entry = this.groups.get(group);
    if (entry?.revision !== revision) return false;
    if (Object.keys(holders).length === 0) this.groups.delete(group);
    else this.groups.set(group, { holders: { ...holders }, revision: (revision ?? 0) + 1 });
    return true;
  }

  async close(): Promise<void> {}
}
