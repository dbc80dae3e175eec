// Identity's customers, billing's ledger entries and issued tokens as PlatformUserService messages.
import { create } from '@bufbuild/protobuf';
import type { Amount, Transaction } from '@voice/proto/voice/billing/v1/billing';
import type { Customer, IssueUserTokensResponse } from '@voice/proto/voice/identity/v1/identity';
import {
  LedgerEntrySchema,
  PlatformUserSchema,
  PlatformUserTokensSchema,
  type LedgerEntry,
  type PlatformUser,
  type PlatformUserTokens,
} from '@voice/proto/voice/platform/v1/platform_users';
import type { InvitationStatus } from './store/store.js';
import { userStatus } from './users/customers.js';

const balanceOf = (amount: Amount | undefined) => ({ creditUnits: amount?.creditUnits ?? 0n, minuteUnits: amount?.minuteUnits ?? 0n });

/** `balances` (by workspace id) only in the detail; without it the workspaces carry none. */
export function presentUser(customer: Customer, invitation: InvitationStatus | undefined, balances?: ReadonlyMap<string, Amount>): PlatformUser {
  return create(PlatformUserSchema, {
    id: customer.userId,
    email: customer.email,
    name: customer.name,
    status: userStatus(customer),
    invitationStatus: invitation ?? 'none',
    createdAt: customer.createdAt,
    workspaces: customer.workspaces.flatMap(({ workspace, role }) =>
      workspace
        ? [
            {
              id: workspace.id,
              name: workspace.name,
              plan: workspace.plan,
              status: workspace.status,
              role,
              balance: balances ? balanceOf(balances.get(workspace.id)) : undefined,
            },
          ]
        : [],
    ),
  });
}

export const presentEntry = (transaction: Transaction | undefined, workspaceId: string): LedgerEntry | undefined =>
  transaction
    ? create(LedgerEntrySchema, {
        id: transaction.id,
        workspaceId,
        kind: transaction.kind,
        amount: balanceOf(transaction.amount),
        balanceAfter: balanceOf(transaction.balanceAfter),
        reference: transaction.reference,
        description: transaction.description,
        createdAt: transaction.createdAt,
      })
    : undefined;

export const presentTokens = (tokens: IssueUserTokensResponse, userId: string, workspaceId: string): PlatformUserTokens =>
  create(PlatformUserTokensSchema, {
    accessToken: tokens.accessToken,
    tokenType: tokens.tokenType,
    expiresIn: tokens.expiresIn,
    refreshToken: tokens.refreshToken,
    userId,
    workspaceId,
    clientId: tokens.clientId,
  });
