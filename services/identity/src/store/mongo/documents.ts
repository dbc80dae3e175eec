// The MongoDB store's document shapes, the collections that hold them, and their mapping to the store's records.
import type { Collection, Db } from 'mongodb';
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

export interface WorkspaceDocument {
  _id: string;
  name: string;
  plan: string;
  status: string;
  parent_workspace_id: string | null;
  /** Present (true) only on the root; a unique sparse index keeps it single. */
  root?: true;
  created_at: string;
  /**
   * Bumped by every member change, so two concurrent changes of one workspace's members conflict
   * and one is retried: without it, two owners demoting each other could both see the other.
   */
  members_revision?: number;
  /** Bumped by every revocation of an unrestricted root key, for the same reason. */
  keys_revision?: number;
}

export interface ApiKeyDocument {
  _id: string;
  workspace_id: string;
  name: string;
  principal_id: string;
  key_hash: string;
  key_hint: string;
  scopes: string[] | null;
  status: string;
  created_at: string;
  last_used_at: string | null;
}

export interface UserDocument {
  _id: string;
  /** Missing only on users written before realms, until the next start assigns it (realms.ts). */
  realm_id?: string;
  email: string;
  name: string;
  password_hash: string | null;
  created_at: string;
}

export interface MemberDocument {
  workspace_id: string;
  user_id: string;
  role: string;
  status: string;
  created_at: string;
  invited_name?: string;
}

export interface ClientDocument {
  _id: string;
  name: string;
  redirect_uris: string[];
  scopes: string[];
  grant_types: string[];
  token_endpoint_auth_method: string;
  secret_hash: string | null;
  client_uri: string | null;
  realm_id?: string | null;
  created_at: string;
}

export interface CodeDocument {
  _id: string;
  code_hash: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  redirect_uri: string;
  scopes: string[];
  code_challenge: string;
  resource: string;
  status: string;
  grant_id: string | null;
  expires_at: string;
  created_at: string;
}

export interface GrantDocument {
  _id: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  scopes: string[];
  resource: string;
  status: string;
  created_at: string;
}

export interface TokenDocument {
  _id: string;
  grant_id: string;
  kind: string;
  token_hash: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  scopes: string[];
  status: string;
  expires_at: string;
  created_at: string;
}

export const workspaceDocument = (w: WorkspaceRecord): WorkspaceDocument => ({
  _id: w.id,
  name: w.name,
  plan: w.plan,
  status: w.status,
  parent_workspace_id: w.parentWorkspaceId,
  ...(w.parentWorkspaceId === null ? { root: true as const } : {}),
  created_at: w.createdAt,
});

export const workspaceRecord = (d: WorkspaceDocument): WorkspaceRecord => ({
  id: d._id,
  name: d.name,
  plan: d.plan,
  status: d.status as WorkspaceRecord['status'],
  parentWorkspaceId: d.parent_workspace_id,
  createdAt: d.created_at,
});

export const keyDocument = (k: ApiKeyRecord): ApiKeyDocument => ({
  _id: k.id,
  workspace_id: k.workspaceId,
  name: k.name,
  principal_id: k.principalId,
  key_hash: k.keyHash,
  key_hint: k.keyHint,
  scopes: k.scopes,
  status: k.status,
  created_at: k.createdAt,
  last_used_at: k.lastUsedAt,
});

export const keyRecord = (d: ApiKeyDocument): ApiKeyRecord => ({
  id: d._id,
  workspaceId: d.workspace_id,
  name: d.name,
  principalId: d.principal_id,
  keyHash: d.key_hash,
  keyHint: d.key_hint,
  scopes: d.scopes,
  status: d.status as ApiKeyRecord['status'],
  createdAt: d.created_at,
  lastUsedAt: d.last_used_at,
});

export const userDocument = (u: UserRecord): UserDocument => ({
  _id: u.id,
  realm_id: u.realmId,
  email: u.email,
  name: u.name,
  password_hash: u.passwordHash,
  created_at: u.createdAt,
});

export const userRecord = (d: UserDocument): UserRecord => ({
  id: d._id,
  realmId: d.realm_id ?? '',
  email: d.email,
  name: d.name,
  passwordHash: d.password_hash,
  createdAt: d.created_at,
});

export const memberRecord = (d: MemberDocument, user: UserDocument): MemberRecord => ({
  workspaceId: d.workspace_id,
  userId: d.user_id,
  role: d.role as Role,
  status: d.status as MemberRecord['status'],
  createdAt: d.created_at,
  email: user.email,
  name: user.name,
  realmId: user.realm_id ?? '',
  ...(d.invited_name === undefined ? {} : { invitedName: d.invited_name }),
});

export const clientDocument = (c: OAuthClientRecord): ClientDocument => ({
  _id: c.id,
  name: c.name,
  redirect_uris: c.redirectUris,
  scopes: c.scopes,
  grant_types: c.grantTypes,
  token_endpoint_auth_method: c.tokenEndpointAuthMethod,
  secret_hash: c.secretHash,
  client_uri: c.clientUri,
  realm_id: c.realmId,
  created_at: c.createdAt,
});

export const clientRecord = (d: ClientDocument): OAuthClientRecord => ({
  id: d._id,
  name: d.name,
  redirectUris: d.redirect_uris,
  scopes: d.scopes,
  grantTypes: d.grant_types,
  tokenEndpointAuthMethod: d.token_endpoint_auth_method as OAuthClientRecord['tokenEndpointAuthMethod'],
  secretHash: d.secret_hash,
  clientUri: d.client_uri,
  realmId: d.realm_id ?? null,
  createdAt: d.created_at,
});

export const codeDocument = (c: AuthorizationCodeRecord): CodeDocument => ({
  _id: c.id,
  code_hash: c.codeHash,
  client_id: c.clientId,
  user_id: c.userId,
  workspace_id: c.workspaceId,
  redirect_uri: c.redirectUri,
  scopes: c.scopes,
  code_challenge: c.codeChallenge,
  resource: c.resource,
  status: c.status,
  grant_id: c.grantId,
  expires_at: c.expiresAt,
  created_at: c.createdAt,
});

export const codeRecord = (d: CodeDocument): AuthorizationCodeRecord => ({
  id: d._id,
  codeHash: d.code_hash,
  clientId: d.client_id,
  userId: d.user_id,
  workspaceId: d.workspace_id,
  redirectUri: d.redirect_uri,
  scopes: d.scopes,
  codeChallenge: d.code_challenge,
  resource: d.resource,
  status: d.status as AuthorizationCodeRecord['status'],
  grantId: d.grant_id,
  expiresAt: d.expires_at,
  createdAt: d.created_at,
});

export const grantDocument = (g: GrantRecord): GrantDocument => ({
  _id: g.id,
  client_id: g.clientId,
  user_id: g.userId,
  workspace_id: g.workspaceId,
  scopes: g.scopes,
  resource: g.resource,
  status: g.status,
  created_at: g.createdAt,
});

export const grantRecord = (d: GrantDocument): GrantRecord => ({
  id: d._id,
  clientId: d.client_id,
  userId: d.user_id,
  workspaceId: d.workspace_id,
  scopes: d.scopes,
  resource: d.resource,
  status: d.status as GrantRecord['status'],
  createdAt: d.created_at,
});

export const tokenDocument = (t: TokenRecord): TokenDocument => ({
  _id: t.id,
  grant_id: t.grantId,
  kind: t.kind,
  token_hash: t.tokenHash,
  client_id: t.clientId,
  user_id: t.userId,
  workspace_id: t.workspaceId,
  scopes: t.scopes,
  status: t.status,
  expires_at: t.expiresAt,
  created_at: t.createdAt,
});

export const tokenRecord = (d: TokenDocument): TokenRecord => ({
  id: d._id,
  grantId: d.grant_id,
  kind: d.kind as TokenRecord['kind'],
  tokenHash: d.token_hash,
  clientId: d.client_id,
  userId: d.user_id,
  workspaceId: d.workspace_id,
  scopes: d.scopes,
  status: d.status as TokenRecord['status'],
  expiresAt: d.expires_at,
  createdAt: d.created_at,
});

export interface Collections {
  workspaces: Collection<WorkspaceDocument>;
  keys: Collection<ApiKeyDocument>;
  users: Collection<UserDocument>;
  members: Collection<MemberDocument>;
  clients: Collection<ClientDocument>;
  codes: Collection<CodeDocument>;
  grants: Collection<GrantDocument>;
  tokens: Collection<TokenDocument>;
}

export const identityCollections = (db: Db): Collections => ({
  workspaces: db.collection<WorkspaceDocument>('workspaces'),
  keys: db.collection<ApiKeyDocument>('api_keys'),
  users: db.collection<UserDocument>('users'),
  members: db.collection<MemberDocument>('members'),
  clients: db.collection<ClientDocument>('oauth_clients'),
  codes: db.collection<CodeDocument>('oauth_codes'),
  grants: db.collection<GrantDocument>('oauth_grants'),
  tokens: db.collection<TokenDocument>('oauth_tokens'),
});
