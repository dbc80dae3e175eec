// Public JSON shapes of /platform/users: users with their workspaces (and, in the detail, each
// workspace's balance), issued tokens, and the two ledger entries of a credit transfer.
import { formatCredits, toIso } from '@voice/runtime';
import type {
  LedgerEntry,
  PlatformUser,
  PlatformUserTokens,
  PlatformUserWorkspace,
  TransferPlatformCreditsResponse,
} from '@voice/proto/voice/platform/v1/platform_users';
import { decimalsOf, presentTransaction } from './billing-presenters.js';

const presentWorkspace = (workspace: PlatformUserWorkspace) => ({
  id: workspace.id,
  name: workspace.name,
  plan: workspace.plan,
  status: workspace.status,
  role: workspace.role,
  ...(workspace.balance ? { balance: decimalsOf(workspace.balance) } : {}),
});

export const presentPlatformUser = (user: PlatformUser) => ({
  id: user.id,
  email: user.email,
  name: user.name,
  status: user.status,
  invitation_status: user.invitationStatus,
  created_at: toIso(user.createdAt),
  workspaces: user.workspaces.map(presentWorkspace),
});

export const presentUserToken = (token: PlatformUserTokens) => ({
  access_token: token.accessToken,
  token_type: token.tokenType,
  expires_in: token.expiresIn,
  refresh_token: token.refreshToken,
  user_id: token.userId,
  workspace_id: token.workspaceId,
  client_id: token.clientId,
});

const presentEntry = (entry: LedgerEntry | undefined) => (entry ? { workspace_id: entry.workspaceId, ...presentTransaction(entry) } : null);

export const presentTransfer = (transfer: TransferPlatformCreditsResponse) => ({
  user_id: transfer.userId,
  workspace_id: transfer.workspaceId,
  amount: formatCredits(Number(transfer.creditUnits)),
  description: transfer.description,
  platform_transaction: presentEntry(transfer.platformEntry),
  user_transaction: presentEntry(transfer.userEntry),
});
