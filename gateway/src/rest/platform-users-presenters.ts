// /platform/users answers as public JSON: users with their workspaces (and, in the detail, each
// workspace's balance), issued tokens, and the two ledger entries of a credit transfer. Each presenter is
// typed by its schema in @voice/contracts/platform-users.
import type { z } from 'zod';
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
import { oneOf } from '@voice/contracts/responses';
import { invitationStatuses, platformUserStatuses, type ledgerEntrySchema, type platformUserSchema, type platformUserWorkspaceSchema, type transferSchema, type userTokenSchema } from '@voice/contracts/platform-users';
import { decimalsOf, presentTransaction, } from './billing-presenters.js';

const presentWorkspace = (workspace: PlatformUserWorkspace): z.infer<typeof platformUserWorkspaceSchema> => ({
  id: workspace.id,
  name: workspace.name,
  plan: oneOf(plans, workspace.plan),
  status: oneOf(platformUserStatuses, workspace.status),
  role: oneOf(roles, workspace.role),
  ...(workspace.balance ? { balance: decimalsOf(workspace.balance) } : {}),
});

export const presentPlatformUser = (user: PlatformUser): z.infer<typeof platformUserSchema> => ({
  id: user.id,
  email: user.email,
  name: user.name,
  status: oneOf(platformUserStatuses, user.status),
  invitation_status: oneOf(invitationStatuses, user.invitationStatus),
  created_at: toIso(user.createdAt),
  workspaces: user.workspaces.map(presentWorkspace),
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
