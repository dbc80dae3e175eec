// Reads the root workspace's whole ledger (GET /api/v1/transactions, every page) and keeps its
// SMS debits.
import { expectApi } from './api-client.js';

export interface SmsDebit {
  id: string;
  /** The id of the message the debit bills. */
  reference: string;
  /** The ledger entry's created_at, in ms since the epoch. */
  createdAtMs: number;
}

interface TransactionPage {
  data: { id: string; kind: string; reference: string; created_at: string }[];
}

const smsDebitKind = 'sms.outbound';
const pageLimit = 200;

/**
 * The list is newest first and may grow while it is read. A new entry only pushes older ones to
 * higher offsets, so reading page after page until a short page sees every entry that existed
 * when the read began, some of them twice: entries are deduplicated by their own id, which keeps
 * two debits of one message apart.
 */
export async function readSmsDebits(baseUrl: string, apiKey: string): Promise<SmsDebit[]> {
  const debits = new Map<string, SmsDebit>();
  for (let offset = 0; ; offset += pageLimit) {
    const page = (await expectApi(200, baseUrl, apiKey, 'GET', `/api/v1/transactions?limit=${pageLimit}&offset=${offset}`)) as TransactionPage;
    for (const entry of page.data) {
      if (entry.kind === smsDebitKind) debits.set(entry.id, { id: entry.id, reference: entry.reference, createdAtMs: Date.parse(entry.created_at) });
    }
    if (page.data.length < pageLimit) return [...debits.values()];
  }
}
