// Every answer of a create the load generator received (POST /api/v1/sms/send's 202, POST
// /api/v1/calls's 201): the id and the server's created_at and updated_at from the body, grouped by run (warm-up,
// measured).
export interface Accepted {
  id: string;
  /** The resource's created_at, in ms since the epoch. */
  createdAtMs: number;
  /** The resource's updated_at in the answer, in ms since the epoch (an SMS: when the carrier's acceptance was recorded). */
  updatedAtMs: number;
  /** When the bench read the answer, in ms since the epoch (same machine, same clock). */
  answeredAtMs: number;
}

export class AcceptedLog {
  private readonly runs: Accepted[][] = [];

  /** Starts a new run; answers recorded from now on belong to it. */
  startRun(): void {
    this.runs.push([]);
  }

  record(body: string): void {
    const run = this.runs.at(-1);
    if (!run) throw new Error('an answer arrived before any run started');
    const { data } = JSON.parse(body) as { data: { id: string; created_at: string; updated_at: string } };
    run.push({ id: data.id, createdAtMs: Date.parse(data.created_at), updatedAtMs: Date.parse(data.updated_at), answeredAtMs: Date.now() });
  }

  get runCount(): number {
    return this.runs.length;
  }

  /** The answers of the last run started (the measured one, once measure() is done). */
  lastRun(): readonly Accepted[] {
    return this.runs.at(-1) ?? [];
  }

  /** The answers of every run. */
  all(): Accepted[] {
    return this.runs.flat();
  }
}
