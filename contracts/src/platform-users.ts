// Request schemas of the /platform/users API, shared by the gateway (REST validation) and, with
// issue 6, the MCP tools and the OpenAPI document: one definition of each field's rules.
import { z } from 'zod';
import { plans } from '@voice/runtime/access';
import { emailIssue, maxNameLength, normaliseEmail, passwordIssue } from '@voice/runtime/accounts';
import { creditScale, parseCredits } from '@voice/runtime/amounts';
import { checkedBy, pageQueryFields } from '@voice/runtime/validation';

/** The largest amount one transfer may move, in credits. */
export const maxTransferCredits = 100_000_000_000;

const email = z.string().superRefine(checkedBy((value) => emailIssue(normaliseEmail(value))));
const password = z.string().superRefine(checkedBy(passwordIssue));

export const listPlatformUsersQuerySchema = z.strictObject({
  ...pageQueryFields,
  q: z.string().max(200, 'must be at most 200 characters').optional(),
});

export const registerPlatformUserBodySchema = z.strictObject({
  email,
  name: z.string().trim().min(1, 'must not be empty').max(maxNameLength, `must be at most ${maxNameLength} characters`),
  password: password.optional(),
  plan: z.enum(plans).optional(),
});

export const loginPlatformUserBodySchema = z.strictObject({
  email: z.string().max(254, 'must be at most 254 characters'),
  password: z.string().max(1000, 'must be at most 1000 characters'),
});

export const setPlatformUserStatusBodySchema = z.strictObject({ status: z.enum(['active', 'suspended']) });

/** Credits as a decimal string ("25.5") or a JSON number; four places at most, never zero. */
const creditAmount = z
  .union([z.string(), z.number()])
  .transform((value, context) => {
    const units = parseCredits(typeof value === 'number' ? String(value) : value.trim());
    if (units === undefined || units === 0 || Math.abs(units) > maxTransferCredits * creditScale) {
      context.addIssue({
        code: 'custom',
        message: `must be a non-zero amount of credits with at most 4 decimal places, within ±${maxTransferCredits}`,
      });
      return z.NEVER;
    }
    return units;
  });

export const transferCreditsBodySchema = z.strictObject({
  amount: creditAmount,
  description: z.string().trim().max(500, 'must be at most 500 characters').optional(),
});
