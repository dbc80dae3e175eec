// The MongoDB store's document shapes (each entity's stored form, store/mapping/, under _id) and the collections that hold them.
import type { Collection, Db } from 'mongodb';
import { mongoValues } from '@voice/runtime/store';
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
import { apiKeyFromStored, storedApiKey, type StoredApiKey } from '../mapping/api-key.js';
import { authorizationCodeFromStored, storedAuthorizationCode, type StoredAuthorizationCode } from '../mapping/authorization-code.js';
import { grantFromStored, storedGrant, type StoredGrant } from '../mapping/grant.js';
import { memberFromStored, type StoredMembership } from '../mapping/member.js';
import { oauthClientFromStored, storedOAuthClient, type StoredOAuthClient } from '../mapping/oauth-client.js';
import { storedToken, tokenFromStored, type StoredToken } from '../mapping/token.js';
import { storedUser, userFromStored, type StoredUser } from '../mapping/user.js';
import { storedWorkspace, workspaceFromStored, type StoredWorkspace } from '../mapping/workspace.js';

type Document<Stored> = Stored & { _id: string };

export type WorkspaceDocument = Document<StoredWorkspace> & {
  /** Present (true) only on the root; a unique sparse index keeps it single. */
  root?: true;
  /**
   * Bumped by every member change, so two concurrent changes of one workspace's members conflict
   * and one is retried: without it, two owners demoting each other could both see the other.
   */
  members_revision?: number;
  /** Bumped by every revocation of an unrestricted root key, for the same reason. */
  keys_revision?: number;
};
export type ApiKeyDocument = Document<StoredApiKey<string[]>>;
export type UserDocument = Document<StoredUser>;
export type MemberDocument = StoredMembership;
export type ClientDocument = Document<StoredOAuthClient<string[]>>;
export type CodeDocument = Document<StoredAuthorizationCode<string[]>>;
export type GrantDocument = Document<StoredGrant<string[]>>;
export type TokenDocument = Document<StoredToken<string[]>>;

export const workspaceDocument = (w: WorkspaceRecord): WorkspaceDocument => ({
  _id: w.id,
  ...storedWorkspace(w),
  ...(w.parentWorkspaceId === null ? { root: true as const } : {}),
});
export const workspaceRecord = (d: WorkspaceDocument): WorkspaceRecord => workspaceFromStored(d._id, d);
export const keyDocument = (k: ApiKeyRecord): ApiKeyDocument => ({ _id: k.id, ...storedApiKey(k, mongoValues) });
export const keyRecord = (d: ApiKeyDocument): ApiKeyRecord => apiKeyFromStored(d._id, d, mongoValues);
export const userDocument = (u: UserRecord): UserDocument => ({ _id: u.id, ...storedUser(u) });
export const userRecord = (d: UserDocument): UserRecord => userFromStored(d._id, d);
export const memberRecord = (d: MemberDocument, user: UserDocument): MemberRecord => memberFromStored(d, user);
export const clientDocument = (c: OAuthClientRecord): ClientDocument => ({ _id: c.id, ...storedOAuthClient(c, mongoValues) });
export const clientRecord = (d: ClientDocument): OAuthClientRecord => oauthClientFromStored(d._id, d, mongoValues);
export const codeDocument = (c: AuthorizationCodeRecord): CodeDocument => ({ _id: c.id, ...storedAuthorizationCode(c, mongoValues) });
export const codeRecord = (d: CodeDocument): AuthorizationCodeRecord => authorizationCodeFromStored(d._id, d, mongoValues);
export const grantDocument = (g: GrantRecord): GrantDocument => ({ _id: g.id, ...storedGrant(g, mongoValues) });
export const grantRecord = (d: GrantDocument): GrantRecord => grantFromStored(d._id, d, mongoValues);
export const tokenDocument = (t: TokenRecord): TokenDocument => ({ _id: t.id, ...storedToken(t, mongoValues) });
export const tokenRecord = (d: TokenDocument): TokenRecord => tokenFromStored(d._id, d, mongoValues);

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
