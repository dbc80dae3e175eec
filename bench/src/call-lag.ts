// How long an ended call takes to become its ledger debit (the calls service's usage event through
// its outbox and the event stream to billing's consumer, which captures the call's hold), and
// whether every call the platform took ended and every answered one was charged exactly once.
import { listAll } from './api-client.js';
import type { Accepted, AcceptedLog } from './accepted-log.js';
import { callDebitKind, firstDebitOf, readDebits, type Debit } from './ledger.js';
import { readUntil, type ReadOutcome } from './read-until.js';
import { lagFiguresOf, type LagFigures } from './sms-lag.js';

export interface CallIntegrity {
  /** 201 answers received, warm-up and measured run together. */
  answers: number;
  /** Of those, the calls that have ended. */
  ended: number;
  /** Ended calls with answered seconds: each owes exactly one debit. */
  billable: number;
  /** Of those, the calls with at least one call.minutes debit. */
  charged: number;
  /** call.minutes entries in the ledger. */
  debits: number;
  /** Calls with more than one debit. */
  chargedTwice: number;
  /** Debits of calls whose 201 never reached the load generator (requests in flight when a run stopped). */
  debitsWithoutAnswer: number;
  /** One in-flight request per connection per run. */
  allowedWithoutAnswer: number;
  /** How the calls ended, by status and end reason ("completed/assistant_ended"). */
  endStatuses: Record<string, number>;
}

/** The outcome's reads: of the calls and the ledger, the first right after the measured run, until every call ended and was charged. */
export interface CallLagReport extends ReadOutcome {
  /** Billable calls of the measured run the lag is computed over. */
  calls: number;
  /** ledger created_at − call ended_at over those calls; undefined if any is not charged. */
  lagMs: LagFigures | undefined;
  timeoutSeconds: number;
  integrity: CallIntegrity;
}

interface CallState {
  /** Status and end reason, e.g. completed/assistant_ended. */
  outcome: string;
  endedAtMs: number | undefined;
  durationSeconds: number;
}

interface ListedCall {
  id: string;
  status: string;
  end_reason: string | null;
  ended_at: string | null;
  duration_seconds: number;
}

/** The root workspace's calls by id, every page (newest first; a call read twice is kept once). */
async function readCalls(baseUrl: string, apiKey: string): Promise<Map<string, CallState>> {
  const calls = new Map<string, CallState>();
  for await (const call of listAll<ListedCall>(baseUrl, apiKey, '/api/v1/calls')) {
    calls.set(call.id, { outcome: `${call.status}/${call.end_reason ?? ''}`, endedAtMs: call.ended_at === null ? undefined : Date.parse(call.ended_at), durationSeconds: call.duration_seconds });
  }
  return calls;
}

const isBillable = (call: CallState | undefined): call is CallState & { endedAtMs: number } => call?.endedAtMs !== undefined && call.durationSeconds > 0;

function integrityOf(answered: Accepted[], calls: Map<string, CallState>, debits: Debit[], allowedWithoutAnswer: number): CallIntegrity {
  const answeredIds = new Set(answered.map((call) => call.id));
  const debitsPerCall = new Map<string, number>();
  for (const debit of debits) debitsPerCall.set(debit.reference, (debitsPerCall.get(debit.reference) ?? 0) + 1);
  const endStatuses: Record<string, number> = {};
  let ended = 0;
  let billable = 0;
  let charged = 0;
  for (const { id } of answered) {
    const call = calls.get(id);
    if (call?.endedAtMs === undefined) continue;
    ended += 1;
    endStatuses[call.outcome] = (endStatuses[call.outcome] ?? 0) + 1;
    if (!isBillable(call)) continue;
    billable += 1;
    if (debitsPerCall.has(id)) charged += 1;
  }
  return {
    answers: answered.length,
    ended,
    billable,
    charged,
    debits: debits.length,
    chargedTwice: [...debitsPerCall.values()].filter((count) => count > 1).length,
    debitsWithoutAnswer: debits.filter((debit) => !answeredIds.has(debit.reference)).length,
    allowedWithoutAnswer,
    endStatuses,
  };
}

/**
 * Reads the calls and the ledger until every 201 answer's call has ended and every billable one has
 * its debit, or the timeout passes; then computes the lag of the measured run's billable calls and
 * the integrity of all of them. A failed read counts as "not yet": the timeout decides.
 */
export async function measureCallLag(baseUrl: string, apiKey: string, placed: AcceptedLog, connections: number, timeoutSeconds: number): Promise<CallLagReport> {
  const answered = placed.all();
  let calls = new Map<string, CallState>();
  let debits: Debit[] = [];
  const outcome = await readUntil(
    async () => {
      calls = await readCalls(baseUrl, apiKey);
      debits = await readDebits(baseUrl, apiKey, callDebitKind);
      const charged = new Set(debits.map((debit) => debit.reference));
      return answered.every(({ id }) => {
        const call = calls.get(id);
        return call?.endedAtMs !== undefined && (!isBillable(call) || charged.has(id));
      });
    },
    timeoutSeconds,
    500,
  );

  const firstDebits = firstDebitOf(debits);
  const lags: number[] = [];
  let measured = 0;
  let uncharged = false;
  for (const { id } of placed.lastRun()) {
    const call = calls.get(id);
    if (!isBillable(call)) continue;
    measured += 1;
    const debit = firstDebits.get(id);
    if (debit) lags.push(debit.createdAtMs - call.endedAtMs);
    else uncharged = true;
  }
  return {
    calls: measured,
    lagMs: uncharged ? undefined : lagFiguresOf(lags),
    ...outcome,
    timeoutSeconds,
    integrity: integrityOf(answered, calls, debits, connections * placed.runCount),
  };
}
