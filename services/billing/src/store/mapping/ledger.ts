// A ledger entry's stored form, the same in both adapters (snake_case columns in SQLite, fields in
// MongoDB, beside the adapter's own key, `id` or `_id`), its record, and a kind's usage total.
import { negated, type Units } from '../../domain/amounts.js';
import type { EntryCategory } from '../../domain/kinds.js';
import type { LedgerEntry, UsageTotal } from '../store.js';

export interface StoredLedgerEntry {
  workspace_id: string;
  wallet_version: number;
  kind: string;
  category: string;
  credit_units: number;
  minute_units: number;
  balance_credit_units: number;
  balance_minute_units: number;
  reference: string;
  description: string;
  created_at: string;
}

export const storedLedgerEntry = (entry: LedgerEntry): StoredLedgerEntry => ({
  workspace_id: entry.workspaceId,
  wallet_version: entry.walletVersion,
  kind: entry.kind,
  category: entry.category,
  credit_units: entry.amount.creditUnits,
  minute_units: entry.amount.minuteUnits,
  balance_credit_units: entry.balanceAfter.creditUnits,
  balance_minute_units: entry.balanceAfter.minuteUnits,
  reference: entry.reference,
  description: entry.description,
  created_at: entry.createdAt,
});

export const ledgerEntryFromStored = (id: string, row: StoredLedgerEntry): LedgerEntry => ({
  id,
  workspaceId: row.workspace_id,
  kind: row.kind,
  category: row.category as EntryCategory,
  amount: { creditUnits: row.credit_units, minuteUnits: row.minute_units },
  balanceAfter: { creditUnits: row.balance_credit_units, minuteUnits: row.balance_minute_units },
  walletVersion: row.wallet_version,
  reference: row.reference,
  description: row.description,
  createdAt: row.created_at,
});

/** A kind's total from the sums of its (negative) consumption entries. */
export const usageTotalOf = (kind: string, count: number, sums: { credit_units: number; minute_units: number }): UsageTotal => ({
  kind,
  count,
  consumed: negated({ creditUnits: Number(sums.credit_units), minuteUnits: Number(sums.minute_units) } satisfies Units),
});
