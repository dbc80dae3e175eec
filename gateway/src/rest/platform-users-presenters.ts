// Public JSON shapes of /platform/users: users with their workspaces (and, in the detail, each
// workspace's balance), issued tokens, and the two ledger entries of a credit transfer. Each
// schema describes what its presenter answers, and the presenter is typed by it.
import { z } from 'zod';
import { plans, roles } from '@voice/runtime/access';
import { formatCredits } from '@voice/runtime/amounts';
import { toIso } from '@voice/runtime/time';
import type {
  LedgerEntry,
  PlatformUser,
  PlatformUserTokens,
  PlatformUserWorkspace,
  TransferPlatformCreditsResponse,
} from '@voice/proto/voice/platform/v1/platform_users';
import { decimalsOf, presentTransaction, transactionSchema } from './billing-presenters.js';
import { amountsSchema, creditsSchema, idSchema, oneOf, timeSchema } from './responses.js';

const statuses = ['active', 'suspended'] as const;
const invitationStatuses = ['none', 'pending', 'accepted'] as const;

const platformUserWorkspaceSchema = z.object({
  id: idSchema,
  name: z.string(),
  plan: z.enum(plans),
  status: z.enum(statuses),
  role: z.enum(roles).describe('the user’s role in the workspace'),
  balance: amountsSchema.optional().describe('the workspace’s balance; in the detail only'),
});

export const platformUserSchema = z.object({
  id: idSchema,
  email: z.string(),
  name: z.string(),
  status: z.enum(statuses).describe('suspended when every workspace of the user under the platform is'),
  invitation_status: z.enum(invitationStatuses).describe('none: registered with a password; pending or accepted: invited by e-mail'),
  created_at: timeSchema.nullable(),
  workspaces: z.array(platformUserWorkspaceSchema).describe('the user’s workspaces under the platform, oldest first'),
});

const presentWorkspace = (workspace: PlatformUserWorkspace): z.infer<typeof platformUserWorkspaceSchema> => ({
  id: workspace.id,
  name: workspace.name,
  plan: oneOf(plans, workspace.plan),
  status: oneOf(statuses, workspace.status),
  role: oneOf(roles, workspace.role),
  ...(workspace.balance ? { balance: decimalsOf(workspace.balance) } : {}),
});

export const presentPlatformUser = (user: PlatformUser): z.infer<typeof platformUserSchema> => ({
  id: user.id,
  email: user.email,
  name: user.name,
  status: oneOf(statuses, user.status),
  invitation_status: oneOf(invitationStatuses, user.invitationStatus),
  created_at: toIso(user.createdAt),
  workspaces: user.workspaces.map(presentWorkspace),
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

export const presentUserToken = (token: PlatformUserTokens): z.infer<typeof userTokenSchema> => ({
  access_token: token.accessToken,
  token_type: token.tokenType,
  expires_in: token.expiresIn,
  refresh_token: token.refreshToken,
  user_id: token.userId,
  workspace_id: token.workspaceId,
  client_id: token.clientId,
});

const ledgerEntrySchema = transactionSchema.extend({ workspace_id: idSchema.describe('the wallet’s workspace') });

export const transferSchema = z.object({
  user_id: idSchema,
  workspace_id: idSchema.describe('the user’s wallet: the user’s first workspace under the platform'),
  amount: creditsSchema.describe('the credits moved to the user (negative: taken back)'),
  description: z.string(),
  platform_transaction: ledgerEntrySchema.nullable().describe('the entry in the platform’s ledger'),
  user_transaction: ledgerEntrySchema.nullable().describe('the entry in the user’s ledger'),
});

const presentEntry = (entry: LedgerEntry | undefined): z.infer<typeof ledgerEntrySchema> | null =>
  entry ? { workspace_id: entry.workspaceId, ...presentTransaction(entry) } : null;

export const presentTransfer = (transfer: TransferPlatformCreditsResponse): z.infer<typeof transferSchema> => ({
  user_id: transfer.userId,
  workspace_id: transfer.workspaceId,
  amount: formatCredits(Number(transfer.creditUnits)),
  description: transfer.description,
  platform_transaction: presentEntry(transfer.platformEntry),
  user_transaction: presentEntry(transfer.userEntry),
});
