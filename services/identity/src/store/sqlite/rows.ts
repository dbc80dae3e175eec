// The SQLite store's row shapes: each entity's stored form (store/mapping/) with its id column,
// and JSON text where the record has a list.
import { sqliteValues } from '@voice/runtime/store';
import type {
  ApiKeyRecord,
  AuthorizationCodeRecord,
  GrantRecord,
  MemberRecord,
  OAuthClientRecord,
  TokenRecord,
  UserRecord,
  WorkspaceRecord,
} from '../store.js';
import { apiKeyFromStored, type StoredApiKey } from '../mapping/api-key.js';
import { authorizationCodeFromStored, type StoredAuthorizationCode } from '../mapping/authorization-code.js';
import { grantFromStored, type StoredGrant } from '../mapping/grant.js';
import { memberFromStored, type StoredMembership } from '../mapping/member.js';
import { oauthClientFromStored, type StoredOAuthClient } from '../mapping/oauth-client.js';
import { tokenFromStored, type StoredToken } from '../mapping/token.js';
import { userFromStored, type StoredUser } from '../mapping/user.js';
import { workspaceFromStored, type StoredWorkspace } from '../mapping/workspace.js';

type Row<Stored> = Stored & { id: string };

export type WorkspaceRow = Row<StoredWorkspace>;
export type ApiKeyRow = Row<StoredApiKey<string>>;
export type UserRow = Row<StoredUser & { realm_id: string }>;
/** A membership joined with its user's e-mail, name and realm. */
export type MemberRow = StoredMembership & Pick<UserRow, 'email' | 'name' | 'realm_id'>;
export type ClientRow = Row<StoredOAuthClient<string>>;
export type CodeRow = Row<StoredAuthorizationCode<string>>;
export type GrantRow = Row<StoredGrant<string>>;
export type TokenRow = Row<StoredToken<string>>;

export const workspaceFromRow = (row: WorkspaceRow): WorkspaceRecord => workspaceFromStored(row.id, row);
export const keyFromRow = (row: ApiKeyRow): ApiKeyRecord => apiKeyFromStored(row.id, row, sqliteValues);
export const userFromRow = (row: UserRow): UserRecord => userFromStored(row.id, row);
export const memberFromRow = (row: MemberRow): MemberRecord => memberFromStored(row, row);
export const clientFromRow = (row: ClientRow): OAuthClientRecord => oauthClientFromStored(row.id, row, sqliteValues);
export const codeFromRow = (row: CodeRow): AuthorizationCodeRecord => authorizationCodeFromStored(row.id, row, sqliteValues);
export const grantFromRow = (row: GrantRow): GrantRecord => grantFromStored(row.id, row, sqliteValues);
export const tokenFromRow = (row: TokenRow): TokenRecord => tokenFromStored(row.id, row, sqliteValues);

export const ids = (rows: unknown[]): string[] => (rows as { id: string }[]).map((row) => row.id);
