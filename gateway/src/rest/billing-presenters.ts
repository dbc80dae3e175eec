// Public JSON shapes of billing: exact decimal strings with every place (credits to 4, minutes
// to 3), never floating point; RFC 3339 times.
import { z } from 'zod';
import { formatCredits, formatMinutes } from '@voice/runtime/amounts';
import { toIso } from '@voice/runtime/time';
import type { Amount, GetUsageSummaryResponse, Transaction, Wallet } from '@voice/proto/voice/billing/v1/billing';
import { amountsSchema, creditsSchema, minutesSchema, timeSchema } from './responses.js';

export const balanceSchema = amountsSchema.extend({
  available: amountsSchema.describe(
    'the balance less open holds (amounts reserved for SMS being sent, numbers being bought, calls in progress): what can still be spent or transferred',
  ),
});

export const transactionSchema = z.object({
  id: z.string(),
  kind: z.string().describe('a usage kind such as sms.outbound or number.monthly, or transfer_in, transfer_out'),
  credits: creditsSchema.describe('signed: negative when value leaves the wallet'),
  minutes: minutesSchema,
  balance_after: amountsSchema,
  reference: z.string(),
  description: z.string(),
  created_at: timeSchema.nullable(),
});

export const usageSummarySchema = z.object({
  from: timeSchema.nullable(),
  to: timeSchema.nullable(),
  credits: creditsSchema,
  minutes: minutesSchema,
  by_kind: z.array(z.object({ kind: z.string(), count: z.int(), credits: creditsSchema, minutes: minutesSchema })),
});

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
