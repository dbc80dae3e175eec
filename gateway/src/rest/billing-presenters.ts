// Public JSON shapes of billing: exact decimal strings with every place (credits to 4, minutes
// to 3), never floating point; RFC 3339 times.
import { formatCredits, formatMinutes, toIso } from '@voice/runtime';
import type { Amount, GetUsageSummaryResponse, Transaction, Wallet } from '@voice/proto/voice/billing/v1/billing';

/** Billing keeps every amount within the safe integer range, so the int64 converts exactly. */
const decimalsOf = (amount: Amount | undefined) => ({
  credits: formatCredits(Number(amount?.creditUnits ?? 0n)),
  minutes: formatMinutes(Number(amount?.minuteUnits ?? 0n)),
});

export const presentBalance = (wallet: Wallet) => decimalsOf(wallet.balance);

export const presentTransaction = (transaction: Transaction) => ({
  id: transaction.id,
  kind: transaction.kind,
  ...decimalsOf(transaction.amount),
  balance_after: decimalsOf(transaction.balanceAfter),
  reference: transaction.reference,
  description: transaction.description,
  created_at: toIso(transaction.createdAt),
});

export const presentUsageSummary = (summary: GetUsageSummaryResponse) => ({
  from: toIso(summary.from),
  to: toIso(summary.to),
  ...decimalsOf(summary.total),
  by_kind: summary.byKind.map((usage) => ({ kind: usage.kind, count: usage.count, ...decimalsOf(usage.amount) })),
});
