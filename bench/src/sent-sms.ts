// Every 202 answer of POST /api/v1/sms/send the load generator received: the message id and the
// server's created_at from the body, grouped by run (warm-up, measured).
export interface SentSms {
  id: string;
  /** The message's created_at, in ms since the epoch. */
  createdAtMs: number;
  /** When the bench read the 202 answer, in ms since the epoch (same machine, same clock). */
  answeredAtMs: number;
}

export class SentSmsLog {
  private readonly runs: SentSms[][] = [];

  /** Starts a new run; answers recorded from now on belong to it. */
  startRun(): void {
    this.runs.push([]);
  }

  record(body: string): void {
    const run = this.runs.at(-1);
    if (!run) throw new Error('an SMS answer arrived before any run started');
    const { data } = JSON.parse(body) as { data: { id: string; created_at: string } };
    run.push({ id: data.id, createdAtMs: Date.parse(data.created_at), answeredAtMs: Date.now() });
  }

  get runCount(): number {
    return this.runs.length;
  }

  /** The answers of the last run started (the measured one, once measure() is done). */
  lastRun(): readonly SentSms[] {
    return this.runs.at(-1) ?? [];
  }

  /** The answers of every run. */
  all(): SentSms[] {
    return this.runs.flat();
  }
}
