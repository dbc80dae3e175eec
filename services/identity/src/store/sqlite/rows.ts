// The SQLite store's row shapes and their mapping to the store's records.
import type { Role } from '@voice/runtime/access';
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

export interface WorkspaceRow {
  id: string;
  name: string;
  plan: string;
  status: string;
  parent_workspace_id: string | null;
  created_at: string;
}

export interface ApiKeyRow {
  id: string;
  workspace_id: string;
  name: string;
  principal_id: string;
  key_hash: string;
  key_hint: string;
  scopes: string | null;
  status: string;
  created_at: string;
  last_used_at: string | null;
}

export interface UserRow {
  id: string;
  realm_id: string;
  email: string;
  name: string;
  password_hash: string | null;
  created_at: string;
}

export interface MemberRow {
  workspace_id: string;
  user_id: string;
  role: string;
  status: string;
  created_at: string;
  email: string;
  name: string;
  realm_id: string;
  invited_name: string | null;
}

export interface ClientRow {
  id: string;
  name: string;
  redirect_uris: string;
  scopes: string;
  grant_types: string;
  token_endpoint_auth_method: string;
  secret_hash: string | null;
  client_uri: string | null;
  realm_id: string | null;
  created_at: string;
}

export interface CodeRow {
  id: string;
  code_hash: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  redirect_uri: string;
  scopes: string;
  code_challenge: string;
  resource: string;
  status: string;
  grant_id: string | null;
  expires_at: string;
  created_at: string;
}

export interface GrantRow {
  id: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  scopes: string;
  resource: string;
  status: string;
  created_at: string;
}

export interface TokenRow {
  id: string;
  grant_id: string;
  kind: string;
  token_hash: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  scopes: string;
  status: string;
  expires_at: string;
  created_at: string;
}

const list = (json: string): string[] => JSON.parse(json) as string[];

export const workspaceFromRow = (row: WorkspaceRow): WorkspaceRecord => ({
  id: row.id,
  name: row.name,
  plan: row.plan,
  status: row.status as WorkspaceRecord['status'],
  parentWorkspaceId: row.parent_workspace_id,
  createdAt: row.created_at,
});

export const keyFromRow = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  principalId: row.principal_id,
  keyHash: row.key_hash,
  keyHint: row.key_hint,
  scopes: row.scopes === null ? null : (JSON.parse(row.scopes) as string[]),
  status: row.status as ApiKeyRecord['status'],
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

export const userFromRow = (row: UserRow): UserRecord => ({
  id: row.id,
  realmId: row.realm_id,
  email: row.email,
  name: row.name,
  passwordHash: row.password_hash,
  createdAt: row.created_at,
});

export const memberFromRow = (row: MemberRow): MemberRecord => ({
  workspaceId: row.workspace_id,
  userId: row.user_id,
  role: row.role as Role,
  status: row.status as MemberRecord['status'],
  createdAt: row.created_at,
  email: row.email,
  name: row.name,
  realmId: row.realm_id,
  ...(row.invited_name === null ? {} : { invitedName: row.invited_name }),
});

export const clientFromRow = (row: ClientRow): OAuthClientRecord => ({
  id: row.id,
  name: row.name,
  redirectUris: list(row.redirect_uris),
  scopes: list(row.scopes),
  grantTypes: list(row.grant_types),
  tokenEndpointAuthMethod: row.token_endpoint_auth_method as OAuthClientRecord['tokenEndpointAuthMethod'],
  secretHash: row.secret_hash,
  clientUri: row.client_uri,
  realmId: row.realm_id,
  createdAt: row.created_at,
});

export const codeFromRow = (row: CodeRow): AuthorizationCodeRecord => ({
  id: row.id,
  codeHash: row.code_hash,
  clientId: row.client_id,
  userId: row.user_id,
  workspaceId: row.workspace_id,
  redirectUri: row.redirect_uri,
  scopes: list(row.scopes),
  codeChallenge: row.code_challenge,
  resource: row.resource,
  status: row.status as AuthorizationCodeRecord['status'],
  grantId: row.grant_id,
  expiresAt: row.expires_at,
  createdAt: row.created_at,
});

export const grantFromRow = (row: GrantRow): GrantRecord => ({
  id: row.id,
  clientId: row.client_id,
  userId: row.user_id,
  workspaceId: row.workspace_id,
  scopes: list(row.scopes),
  resource: row.resource,
  status: row.status as GrantRecord['status'],
  createdAt: row.created_at,
});

export const tokenFromRow = (row: TokenRow): TokenRecord => ({
  id: row.id,
  grantId: row.grant_id,
  kind: row.kind as TokenRecord['kind'],
  tokenHash: row.token_hash,
  clientId: row.client_id,
  userId: row.user_id,
  workspaceId: row.workspace_id,
  scopes: list(row.scopes),
  status: row.status as TokenRecord['status'],
  expiresAt: row.expires_at,
  createdAt: row.created_at,
});

export const ids = (rows: unknown[]): string[] => (rows as { id: string }[]).map((row) => row.id);
