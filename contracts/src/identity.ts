// The public JSON of what identity owns: the caller (/me), the workspace's members and its API keys.
import { z } from 'zod';
import { features, memberStatuses, plans, roles } from '@voice/runtime/access';
import { emailIssue, maxNameLength, normaliseEmail } from '@voice/runtime/accounts';
import { checkedBy } from '@voice/runtime/validation';
import { dataOf, idSchema, timeSchema } from './responses.js';

export const workspaceStatuses = ['active', 'suspended'] as const;

export const meSchema = z.object({
  principal: z.object({
    type: z.enum(['service_account', 'user']).describe('a service-account API key, or a user through an OAuth token'),
    id: idSchema,
    name: z.string(),
  }),
  workspace: z.object({
    id: idSchema,
    name: z.string(),
    plan: z.enum(plans),
    features: z.array(z.enum(features)).describe('the features of the plan'),
    white_label: z.boolean().describe('whether the plan includes white_label: the workspace may run a platform of its own users'),
    status: z.enum(workspaceStatuses),
    created_at: timeSchema.nullable(),
  }),
  scopes: z.array(z.string()).nullable().describe('the scopes granted; null when unrestricted (every scope)'),
});

export const role = z.enum(roles);

/** No password: the invited person chooses their own (an unknown field is 400 like any other). */
export const addMemberBodySchema = z.strictObject({
  email: z.string().superRefine(checkedBy((email) => emailIssue(normaliseEmail(email)))),
  role,
  name: z.string().trim().min(1).max(maxNameLength).optional().describe('how the invitation and the member list name the person until they accept'),
});

/** What a member is: the statuses a change may set, and `invited` until the person accepts. */
export const presentedStatuses = [...memberStatuses, 'invited'] as const;

export const updateMemberBodySchema = z
  .strictObject({ role: role.optional(), status: z.enum(memberStatuses).optional() })
  .refine((body) => body.role !== undefined || body.status !== undefined, { message: 'send role, status or both', path: ['role'] });

export const memberSchema = z.object({
  user_id: idSchema,
  email: z.string(),
  name: z.string(),
  role,
  status: z.enum(presentedStatuses).describe('a suspended member’s credentials are refused; an invited member has accepted nothing yet and has no credentials here'),
  created_at: timeSchema.nullable(),
});

export const deletedMemberSchema = dataOf(z.object({ id: idSchema.describe('the user id of the member removed'), deleted: z.literal(true) }));

export const createApiKeyBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  scopes: z.array(z.string()).min(1, 'must list at least one scope').max(64),
});

export const apiKeySchema = z.object({
  id: idSchema,
  name: z.string(),
  scopes: z.array(z.string()).nullable().describe('the scopes the key grants; null when unrestricted (every scope)'),
  key_hint: z.string().describe('masked: the key’s prefix and last four characters, never the key'),
  created_at: timeSchema.nullable(),
  last_used_at: timeSchema.nullable().describe('accurate to one minute; null when never used'),
});

export const createdApiKeySchema = apiKeySchema.extend({
  key: z.string().describe('the secret key; shown only in this answer, never again'),
});
