// The public JSON of the platform-users service: /platform/users (requests and answers: users with their
// workspaces, tokens, credit transfers) and /custom-domain. One definition of each field's rules.
import { z } from 'zod';
import { plans, roles } from '@voice/runtime/access';
import { emailIssue, maxNameLength, normaliseEmail, passwordIssue } from '@voice/runtime/accounts';
import { creditScale, parseCredits } from '@voice/runtime/amounts';
import { checkedBy, pageQueryFields } from '@voice/runtime/validation';
import { transactionSchema } from './billing.js';
import { amountsSchema, creditsSchema, dataOf, idSchema, timeSchema } from './responses.js';

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

export const platformUserStatuses = ['active', 'suspended'] as const;

export const invitationStatuses = ['none', 'pending', 'accepted'] as const;

export const platformUserWorkspaceSchema = z.object({
  id: idSchema,
  name: z.string(),
  plan: z.enum(plans),
  status: z.enum(platformUserStatuses),
  role: z.enum(roles).describe('the user’s role in the workspace'),
  balance: amountsSchema.optional().describe('the workspace’s balance; in the detail only'),
});

export const platformUserSchema = z.object({
  id: idSchema,
  email: z.string(),
  name: z.string(),
  status: z.enum(platformUserStatuses).describe('suspended when every workspace of the user under the platform is'),
  invitation_status: z.enum(invitationStatuses).describe('none: registered with a password; pending or accepted: invited by e-mail'),
  created_at: timeSchema.nullable(),
  workspaces: z.array(platformUserWorkspaceSchema).describe('the user’s workspaces under the platform, oldest first'),
});

export const userTokenSchema = z.object({
  access_token: z.string().describe('a user-bound svc_at_ credential in the user’s first active workspace under the platform'),
  token_type: z.string().describe('Bearer'),
  expires_in: z.int().describe('seconds the access token is valid'),
  refresh_token: z.string().describe('refreshes at POST /oauth/token with grant_type=refresh_token and this client_id'),
  user_id: idSchema,
  workspace_id: idSchema,
  client_id: z.string().describe('the built-in public client of platform-issued tokens'),
});

export const ledgerEntrySchema = transactionSchema.extend({ workspace_id: idSchema.describe('the wallet’s workspace') });

export const transferSchema = z.object({
  user_id: idSchema,
  workspace_id: idSchema.describe('the user’s wallet: the user’s first workspace under the platform'),
  amount: creditsSchema.describe('the credits moved to the user (negative: taken back)'),
  description: z.string(),
  platform_transaction: ledgerEntrySchema.nullable().describe('the entry in the platform’s ledger'),
  user_transaction: ledgerEntrySchema.nullable().describe('the entry in the user’s ledger'),
});

export const logoutSchema = z.object({ user_id: idSchema, revoked_tokens: z.int().min(0).describe('the OAuth tokens, refresh tokens and unused codes revoked') });

// /custom-domain

export const addDomainBodySchema = z.strictObject({ domain: z.string().max(253, 'must be at most 253 characters') });

export const domainStatuses = ['pending_verification', 'active'] as const;

export const recordTypes = ['CNAME', 'TXT'] as const;

export const dnsRecordSchema = z.object({ type: z.enum(recordTypes), name: z.string(), value: z.string() });

export const customDomainSchema = z.object({
  domain: z.string().describe('canonical form: lower case, punycode, no trailing dot'),
  status: z.enum(domainStatuses).describe('active once DNS holds both records at the last verification'),
  dns_records: z.array(dnsRecordSchema).describe('the records to set: a CNAME to the platform and a TXT proving control of the zone'),
  missing: z
    .array(dnsRecordSchema.extend({ found: z.array(z.string()).describe('what DNS answered instead') }))
    .describe('the records the last verification did not find'),
  created_at: timeSchema.nullable(),
  checked_at: timeSchema.nullable().describe('the last verification; null before the first'),
  verified_at: timeSchema.nullable().describe('when the domain became active; null while pending'),
  expires_at: timeSchema
    .nullable()
    .describe('when this pending claim lapses unless verified first (VOICE_CUSTOM_DOMAIN_CLAIM_DAYS after it was made, or after an active domain went back to pending); null while active'),
});

export const removedDomainSchema = dataOf(z.object({ domain: z.string(), deleted: z.literal(true) }));
