// Reads the root workspace's whole ledger (GET /api/v1/transactions, every page) and keeps its
// debits of one kind (SMS, call minutes).
import { listAll } from './api-client.js';

export interface Debit {
  id: string;
  /** The id of what the debit bills (the message, the call). */
  reference: string;
  /** The ledger entry's created_at, in ms since the epoch. */
  createdAtMs: number;
}

interface LedgerEntry {
  id: string;
  kind: string;
  reference: string;
  created_at: string;
}

export const smsDebitKind = 'sms.outbound';
export const callDebitKind = 'call.minutes';

/**
 * The list is newest first and may grow while it is read. A new entry only pushes older ones to
 * higher offsets, so reading page after page until a short page sees every entry that existed
 * when the read began, some of them twice: entries are deduplicated by their own id, which keeps
 * two debits of one message apart.
 */
export async function readDebits(baseUrl: string, apiKey: string, kind: string): Promise<Debit[]> {
  const debits = new Map<string, Debit>();
  for await (const entry of listAll<LedgerEntry>(baseUrl, apiKey, '/api/v1/transactions')) {
    if (entry.kind === kind) debits.set(entry.id, { id: entry.id, reference: entry.reference, createdAtMs: Date.parse(entry.created_at) });
  }
  return [...debits.values()];
}

/** The earliest debit of each reference. */
export function firstDebitOf(debits: readonly Debit[]): Map<string, Debit> {
  const first = new Map<string, Debit>();
  for (const debit of debits) {
    const known = first.get(debit.reference);
    if (!known || debit.createdAtMs < known.createdAtMs) first.set(debit.reference, debit);
  }
  return first;
}
