// The public JSON of billing: answers in exact decimal strings with every place (credits to 4, minutes
// to 3), never floating point, RFC 3339 times; and the query of /usage/summary.
import { z } from 'zod';
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

const instant = z.iso.datetime({ offset: true, error: 'must be an RFC 3339 time, e.g. 2026-11-01T00:00:00.000Z' });
export const usageSummaryQuerySchema = z.strictObject({ from: instant.optional(), to: instant.optional() });
