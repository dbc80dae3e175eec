// How long an accepted SMS takes to become a ledger debit (outbox → event stream → billing's usage
// consumer), and whether every accepted send was debited exactly once.
import { firstDebitOf, readDebits, smsDebitKind, type Debit } from './ledger.js';
import type { Accepted, AcceptedLog } from './accepted-log.js';
import { readUntil } from './read-until.js';

export interface SmsIntegrity {
  /** 202 answers received, warm-up and measured run together. */
  answers: number;
  /** Of those, the answers whose message has at least one sms.outbound debit. */
  debitedAnswers: number;
  /** sms.outbound entries in the ledger. */
  debits: number;
  /** Messages with more than one debit. */
  debitedTwice: number;
  /**
   * Debits of messages whose 202 never reached the load generator: requests still in flight when
   * a run stopped, which the server went on to accept.
   */
  debitsWithoutAnswer: number;
  /** One in-flight request per connection per run. */
  allowedWithoutAnswer: number;
}

export interface SmsLagReport {
  /** Messages of the measured run (its 202 answers) the lag is computed over. */
  messages: number;
  /** ledger created_at − message created_at over those messages; undefined if any is not debited. */
  lagMs: LagFigures | undefined;
  /**
   * ledger created_at − the message's updated_at in its 202 (the acceptance's commit): the event
   * path from the outbox on; the rest of lagMs is the send's own way (hold, carrier, acceptance).
   */
  afterAcceptanceMs: LagFigures | undefined;
  /**
   * ledger created_at − the bench's receipt of the 202 answer: the event path alone (outbox relay,
   * stream, billing's consumer), less the answer's way back; negative when the debit came first.
   */
  afterAnswerMs: LagFigures | undefined;
  /** Full reads of the ledger, the first one right after the measured run's settle time, until every answer was debited. */
  ledgerReads: number;
  /** From the start of the first read to the end of the last. */
  waitedMs: number;
  complete: boolean;
  timeoutSeconds: number;
  /** Why the last read of the ledger failed, if it did (e.g. a 503 while billing does not answer). */
  lastReadError: string | undefined;
  integrity: SmsIntegrity;
}

export interface LagFigures {
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of ascending values. */
const percentile = (sorted: number[], p: number): number => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** The figures of some lags in milliseconds; undefined when there are none. */
export function lagFiguresOf(lags: readonly number[]): LagFigures | undefined {
  if (lags.length === 0) return undefined;
  const sorted = [...lags].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1)!, mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
}

function lagOf(messages: readonly Accepted[], firstDebitOf: Map<string, Debit>, from: (message: Accepted) => number): LagFigures | undefined {
  const lags: number[] = [];
  for (const message of messages) {
    const debit = firstDebitOf.get(message.id);
    if (!debit) return undefined;
    lags.push(debit.createdAtMs - from(message));
  }
  return lagFiguresOf(lags);
}

function integrityOf(answered: Accepted[], debits: Debit[], allowedWithoutAnswer: number): SmsIntegrity {
  const answeredIds = new Set(answered.map((message) => message.id));
  const debitsPerMessage = new Map<string, number>();
  for (const debit of debits) debitsPerMessage.set(debit.reference, (debitsPerMessage.get(debit.reference) ?? 0) + 1);
  return {
    answers: answered.length,
    debitedAnswers: answered.filter((message) => debitsPerMessage.has(message.id)).length,
    debits: debits.length,
    debitedTwice: [...debitsPerMessage.values()].filter((count) => count > 1).length,
    debitsWithoutAnswer: debits.filter((debit) => !answeredIds.has(debit.reference)).length,
    allowedWithoutAnswer,
  };
}

/**
 * Reads the ledger until every 202 answer of every run has its debit or the timeout passes, then
 * computes the lag of the measured run's messages and the integrity of all debits. A failed read
 * counts as "not yet": the timeout decides, and the report names the error.
 */
export async function measureSmsLag(baseUrl: string, apiKey: string, sent: AcceptedLog, connections: number, timeoutSeconds: number): Promise<SmsLagReport> {
  const answered = sent.all();
  let debits: Debit[] = [];
  const { reads: ledgerReads, waitedMs, complete, lastReadError } = await readUntil(
    async () => {
      debits = await readDebits(baseUrl, apiKey, smsDebitKind);
      const debited = new Set(debits.map((debit) => debit.reference));
      return answered.every((message) => debited.has(message.id));
    },
    timeoutSeconds,
    250,
  );

  const firstDebits = firstDebitOf(debits);
  const measured = sent.lastRun();
  return {
    messages: measured.length,
    lagMs: lagOf(measured, firstDebits, (message) => message.createdAtMs),
    afterAcceptanceMs: lagOf(measured, firstDebits, (message) => message.updatedAtMs),
    afterAnswerMs: lagOf(measured, firstDebits, (message) => message.answeredAtMs),
    ledgerReads,
    waitedMs,
    complete,
    timeoutSeconds,
    lastReadError,
    integrity: integrityOf(answered, debits, connections * sent.runCount),
  };
}
