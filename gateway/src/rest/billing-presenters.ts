// Billing's answers as public JSON: exact decimal strings with every place (credits to 4, minutes to 3),
// never floating point; RFC 3339 times. Each presenter is typed by its schema in @voice/contracts/billing.
import type { z } from 'zod';
import { formatCredits, formatMinutes } from '@voice/runtime/amounts';
import { toIso } from '@voice/runtime/time';
import type { Amount, GetUsageSummaryResponse, Transaction, Wallet } from '@voice/proto/voice/billing/v1/billing';
import type { amountsSchema } from '@voice/contracts/responses';
import type { balanceSchema, transactionSchema, usageSummarySchema } from '@voice/contracts/billing';

type Units = Pick<Amount, 'creditUnits' | 'minuteUnits'>;

/** Billing keeps every amount within the safe integer range, so the int64 converts exactly. */
export const decimalsOf = (amount: Units | undefined): z.infer<typeof amountsSchema> => ({
  credits: formatCredits(Number(amount?.creditUnits ?? 0n)),
  minutes: formatMinutes(Number(amount?.minuteUnits ?? 0n)),
});

export const presentBalance = (wallet: Wallet): z.infer<typeof balanceSchema> => ({ ...decimalsOf(wallet.balance), available: decimalsOf(wallet.available) });

/** A ledger entry: billing's Transaction, or the same fields as another service relays them. */
type LedgerLine = Pick<Transaction, 'id' | 'kind' | 'reference' | 'description' | 'createdAt'> & { amount?: Units; balanceAfter?: Units };

export const presentTransaction = (transaction: LedgerLine): z.infer<typeof transactionSchema> => ({
  id: transaction.id,
  kind: transaction.kind,
  ...decimalsOf(transaction.amount),
  balance_after: decimalsOf(transaction.balanceAfter),
  reference: transaction.reference,
  description: transaction.description,
  created_at: toIso(transaction.createdAt),
});

export const presentUsageSummary = (summary: GetUsageSummaryResponse): z.infer<typeof usageSummarySchema> => ({
  from: toIso(summary.from),
  to: toIso(summary.to),
  ...decimalsOf(summary.total),
  by_kind: summary.byKind.map((usage) => ({ kind: usage.kind, count: usage.count, ...decimalsOf(usage.amount) })),
});
