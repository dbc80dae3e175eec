// The identity service's persistence: workspaces, service-account API keys, users and their
// memberships, platforms' customers, and the OAuth 2.0 server's clients, codes, grants and tokens. Every change that
// ends credentials revokes them in the same transaction and returns their ids.
import type { Role } from '@voice/runtime/access';
import type { Page } from '@voice/runtime/validation';

export interface WorkspaceRecord {
  id: string;
  name: string;
  plan: string;
  status: 'active' | 'suspended';
  /** Null for the root platform workspace. */
  parentWorkspaceId: string | null;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  name: string;
  /** The dedicated non-human principal the key belongs to. */
  principalId: string;
  /** SHA-256 of the full key; the key itself is never stored. */
  keyHash: string;
  keyHint: string;
  /** Null for a key without scope restrictions (the root key). */
  scopes: string[] | null;
  status: 'active' | 'revoked';
  createdAt: string;
  lastUsedAt: string | null;
}

export interface UserRecord {
  id: string;
  /**
   * The user realm: the platform workspace whose users this one is (see realms.ts). A user is a
   * member only of workspaces of its realm.
   */
  realmId: string;
  /** Trimmed and lower-cased; unique within the realm. */
  email: string;
  name: string;
  /** Self-describing scrypt hash; null for a user who has no password. */
  passwordHash: string | null;
  createdAt: string;
}

/** `invited`: added, not accepted yet; such a member has no credentials and is never an owner who counts. */
export type MemberStatus = 'active' | 'suspended' | 'invited';

/** What a membership is; the compare-and-set of member changes compares exactly this. */
export interface MemberState {
  role: Role;
  status: MemberStatus;
}

export interface MembershipRecord extends MemberState {
  workspaceId: string;
  userId: string;
  createdAt: string;
  /** An invited member's name as the inviter gave it, shown until it accepts (never the user's own). */
  invitedName?: string;
}

/** A membership with its user's e-mail, name and realm. */
export interface MemberRecord extends MembershipRecord {
  email: string;
  name: string;
  realmId: string;
}

/** `added` also answers a member still invited, as it is: inviting again sends another link. */
export type AddMemberOutcome = { kind: 'added'; member: MemberRecord } | { kind: 'already_member' };

export type MemberChangeOutcome =
  /** `member` is the membership after the change; undefined after a removal. */
  | { kind: 'changed'; member: MemberRecord | undefined; revokedCredentialIds: string[] }
  | { kind: 'not_found' }
  /** The membership is no longer in the expected state; read it again and decide again. */
  | { kind: 'stale' }
  /** The change would leave the workspace without an active owner. */
  | { kind: 'last_owner' };

export interface OAuthClientRecord {
  /** A UUID; clients described by metadata documents are never stored. */
  id: string;
  name: string;
  redirectUris: string[];
  scopes: string[];
  grantTypes: string[];
  tokenEndpointAuthMethod: 'none' | 'client_secret_basic' | 'client_secret_post';
  /** SHA-256 of the client secret; null for a public client. */
  secretHash: string | null;
  clientUri: string | null;
  /** The realm of the domain it registered through; null for clients registered before realms (the root's). */
  realmId: string | null;
  createdAt: string;
}

export interface AuthorizationCodeRecord {
  id: string;
  /** SHA-256 of the code; the code itself is never stored. */
  codeHash: string;
  /** A registered client's UUID or a metadata document's URL. */
  clientId: string;
  userId: string;
  workspaceId: string;
  /** As the authorization request sent it. */
  redirectUri: string;
  scopes: string[];
  codeChallenge: string;
  /** RFC 8707 resource; empty when none was requested. */
  resource: string;
  status: 'issued' | 'used' | 'revoked';
  /** The grant the code was exchanged for, so a second use can revoke it. */
  grantId: string | null;
  expiresAt: string;
  createdAt: string;
}

/** One authorization: every token issued from one code, through all its refreshes. */
export interface GrantRecord {
  id: string;
  clientId: string;
  userId: string;
  workspaceId: string;
  scopes: string[];
  resource: string;
  status: 'active' | 'revoked';
  createdAt: string;
}

export interface TokenRecord {
  id: string;
  grantId: string;
  kind: 'access' | 'refresh';
  /** SHA-256 of the token; the token itself is never stored. */
  tokenHash: string;
  clientId: string;
  userId: string;
  workspaceId: string;
  /** The grant's scopes, or the subset a refresh narrowed this access token to. */
  scopes: string[];
  /** A refresh token becomes used when it is rotated; presenting it again is a replay. */
  status: 'active' | 'used' | 'revoked';
  expiresAt: string;
  createdAt: string;
}

export type RedeemOutcome =
  | { kind: 'redeemed' }
  /** The code was used before: the grant issued from it is revoked now. */
  | { kind: 'reused'; revokedCredentialIds: string[] }
  | { kind: 'unavailable' };

/** A user who owns workspaces under a platform, with those workspaces (any status), oldest first. */
export interface CustomerRecord {
  user: UserRecord;
  workspaces: { workspace: WorkspaceRecord; role: Role }[];
}

/** `invited`: the e-mail had a user in the realm, who is the new workspace's invited owner (`userId`). */
export type RegisterCustomerOutcome = { kind: 'registered' } | { kind: 'invited'; userId: string };

export type RotateOutcome =
  | { kind: 'rotated' }
  /** The refresh token was used before: its whole grant is revoked now. */
  | { kind: 'reused'; revokedCredentialIds: string[] }
  | { kind: 'unavailable' };

export type RevokeKeyOutcome =
  | 'revoked'
  /** No active key of the workspace has that id. */
  | 'not_found'
  /** The key is the root workspace's last active key without scope restrictions: revoking it would lock the operator out. */
  | 'last_unrestricted';

/** Workspaces and their service-account API keys. */
export interface WorkspaceKeyStore {
  /** Creates the root workspace and its key in one transaction, unless a root already exists. */
  bootstrapRoot(workspace: WorkspaceRecord, key: ApiKeyRecord): Promise<'created' | 'exists'>;
  rootWorkspace(): Promise<WorkspaceRecord | undefined>;
  createWorkspace(workspace: WorkspaceRecord): Promise<void>;
  getWorkspace(id: string): Promise<WorkspaceRecord | undefined>;
  createApiKey(key: ApiKeyRecord): Promise<void>;
  /** Creates the key unless a key with its hash exists already (active or revoked), which is then left as it is. */
  registerApiKey(key: ApiKeyRecord): Promise<'created' | 'exists'>;
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  /** Active keys of the workspace, newest first. */
  listApiKeys(workspaceId: string, page: Page): Promise<{ keys: ApiKeyRecord[]; total: number }>;
  /**
   * Revokes an active key of the workspace, unless it is the root workspace's last active
   * unrestricted key; concurrent revocations of the root's keys never leave it without one.
   */
  revokeApiKey(workspaceId: string, id: string): Promise<RevokeKeyOutcome>;
  touchApiKey(id: string, at: string): Promise<void>;
  /**
   * Suspending revokes every API key, grant, token and unused code of the workspace in the same
   * transaction; reactivating revives nothing. Undefined for an unknown workspace.
   */
  setWorkspaceStatus(
    id: string,
    status: WorkspaceRecord['status'],
  ): Promise<{ workspace: WorkspaceRecord; revokedCredentialIds: string[] } | undefined>;
}

/** Users and their workspace memberships. */
export interface MemberStore {
  /** False when another user of the realm has the e-mail. */
  createUser(user: UserRecord): Promise<boolean>;
  getUser(id: string): Promise<UserRecord | undefined>;
  findUserByEmail(realmId: string, email: string): Promise<UserRecord | undefined>;
  /**
   * Adds the user with `user.email` in `user.realmId`, creating `user` when nobody there has that
   * e-mail yet; a member still invited is answered as it is.
   */
  addMember(membership: Omit<MembershipRecord, 'userId'>, user: UserRecord): Promise<AddMemberOutcome>;
  getMember(workspaceId: string, userId: string): Promise<MemberRecord | undefined>;
  /** Newest membership first. */
  listMembers(workspaceId: string, page: Page): Promise<{ members: MemberRecord[]; total: number }>;
  /**
   * Sets the member to `next` if it is still in the `expected` state, keeping an active owner;
   * with `revoke` the member's grants, tokens and unused codes of this workspace go in the same
   * transaction.
   */
  changeMember(workspaceId: string, userId: string, expected: MemberState, next: MemberState, revoke: boolean): Promise<MemberChangeOutcome>;
  /** Removes the member if still in the `expected` state, keeping an active owner, and revokes as above. */
  removeMember(workspaceId: string, userId: string, expected: MemberState): Promise<MemberChangeOutcome>;
  /**
   * Ids of the member's active access tokens in the workspace: a role change that revokes nothing
   * still announces them, so cached Authenticate answers with the old role's scopes are dropped.
   */
  activeAccessTokenIds(workspaceId: string, userId: string): Promise<string[]>;
  /** Active memberships of the user in active workspaces. */
  membershipsOf(userId: string): Promise<{ workspace: WorkspaceRecord; role: Role }[]>;
  /** Sets the password only if the user has none yet; true when this call set it. */
  setInitialPassword(userId: string, passwordHash: string): Promise<boolean>;
  /** Replaces the hash only if it is still `expected` (a rehash of the same password); true when this call did. */
  replacePasswordHash(userId: string, expected: string, passwordHash: string): Promise<boolean>;
}

/**
 * A platform's customers: the users who are owners (of any member status) of workspaces whose
 * parent is the platform's workspace.
 */
export interface CustomerStore {
  /**
   * Creates the user, its workspace and its membership in one transaction; when a user of
   * `user.realmId` has `user.email` already, creates the workspace with that user as its invited
   * owner instead (named `user.name` until it accepts), and `user` is not written.
   */
  registerCustomer(user: UserRecord, workspace: WorkspaceRecord, membership: MembershipRecord): Promise<RegisterCustomerOutcome>;
  /**
   * Invited owners are not customers yet.
   * Newest first by each customer's oldest workspace under the platform, then by user id, newest
   * first; `query` (empty: everyone) is a case-insensitive substring of the e-mail or the name,
   * matched literally. The total counts the distinct matching customers.
   */
  listCustomers(platformWorkspaceId: string, query: string, page: Page): Promise<{ customers: CustomerRecord[]; total: number }>;
  /** Undefined unless the user owns a workspace under the platform. */
  getCustomer(platformWorkspaceId: string, userId: string): Promise<CustomerRecord | undefined>;
}

/** The OAuth 2.0 server's clients, authorization codes, grants and tokens. */
export interface OAuthStore {
  createClient(client: OAuthClientRecord): Promise<void>;
  /** Creates the client unless one with its id exists, which is then left as it is. */
  ensureClient(client: OAuthClientRecord): Promise<'created' | 'exists'>;
  getClient(id: string): Promise<OAuthClientRecord | undefined>;

  createAuthorizationCode(code: AuthorizationCodeRecord): Promise<void>;
  findAuthorizationCode(codeHash: string): Promise<AuthorizationCodeRecord | undefined>;
  /**
   * Marks an issued code used and stores the grant with its tokens, all at once. A code used
   * before instead revokes the grant issued from it; a revoked or unknown code is unavailable.
   */
  redeemAuthorizationCode(codeId: string, grant: GrantRecord, tokens: TokenRecord[]): Promise<RedeemOutcome>;
  /** Stores a grant issued without an authorization code, with its tokens, all at once. */
  issueGrant(grant: GrantRecord, tokens: TokenRecord[]): Promise<void>;
  findToken(tokenHash: string): Promise<TokenRecord | undefined>;
  getGrant(id: string): Promise<GrantRecord | undefined>;
  /**
   * Marks an active refresh token used and stores the new tokens of its grant, all at once. A
   * token used before instead revokes its whole grant; a revoked or unknown token is unavailable.
   */
  rotateRefreshToken(tokenId: string, tokens: TokenRecord[]): Promise<RotateOutcome>;
  /** Revokes one token; the ids of the credentials that stopped working. */
  revokeToken(tokenId: string): Promise<string[]>;
  /** Revokes the grant and every token of it; the ids of the credentials that stopped working. */
  revokeGrant(grantId: string): Promise<string[]>;
  /**
   * Revokes the user's grants, tokens and unused codes of one workspace in one transaction; the
   * ids of the access and refresh tokens that were still active.
   */
  revokeUserCredentials(workspaceId: string, userId: string): Promise<string[]>;

  // Pruning: each deletes at most `limit` records, the oldest first, and answers how many.
  /** Codes (issued, used or revoked) that expired before `expiredBefore`; a later replay of one is an unknown code. */
  pruneAuthorizationCodes(expiredBefore: string, limit: number): Promise<number>;
  /** Access and refresh tokens (any status) that expired before `expiredBefore`. */
  pruneTokens(expiredBefore: string, limit: number): Promise<number>;
  /** Grants created before `createdBefore` that have no token left (every one expired and pruned). */
  pruneGrants(createdBefore: string, limit: number): Promise<number>;
}

/** The whole store: every part on one connection, which close() ends. */
export type IdentityStore = WorkspaceKeyStore & MemberStore & CustomerStore & OAuthStore & { close(): Promise<void> };
