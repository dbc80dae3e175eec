// The identity store as one object over its per-concern parts; each adapter builds the parts
// on its own connection and closes it.
import type { Role } from '@voice/runtime/access';
import type { Page } from '@voice/runtime/validation';
import type {
  AddMemberOutcome,
  ApiKeyRecord,
  AuthorizationCodeRecord,
  CustomerRecord,
  CustomerStore,
  GrantRecord,
  IdentityStore,
  MemberStore,
  OAuthStore,
  MemberChangeOutcome,
  MemberRecord,
  MembershipRecord,
  MemberState,
  OAuthClientRecord,
  RedeemOutcome,
  RegisterCustomerOutcome,
  RevokeKeyOutcome,
  RotateOutcome,
  TokenRecord,
  UserRecord,
  WorkspaceKeyStore,
  WorkspaceRecord,
} from './store.js';

export interface IdentityStoreParts {
  workspaceKeys: WorkspaceKeyStore;
  members: MemberStore;
  customers: CustomerStore;
  oauth: OAuthStore;
}

export abstract class ComposedIdentityStore implements IdentityStore {
  protected constructor(private readonly parts: IdentityStoreParts) {}

  bootstrapRoot(workspace: WorkspaceRecord, key: ApiKeyRecord): Promise<'created' | 'exists'> {
    return this.parts.workspaceKeys.bootstrapRoot(workspace, key);
  }

  rootWorkspace(): Promise<WorkspaceRecord | undefined> {
    return this.parts.workspaceKeys.rootWorkspace();
  }

  createWorkspace(workspace: WorkspaceRecord): Promise<void> {
    return this.parts.workspaceKeys.createWorkspace(workspace);
  }

  getWorkspace(id: string): Promise<WorkspaceRecord | undefined> {
    return this.parts.workspaceKeys.getWorkspace(id);
  }

  createApiKey(key: ApiKeyRecord): Promise<void> {
    return this.parts.workspaceKeys.createApiKey(key);
  }

  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    return this.parts.workspaceKeys.findApiKeyByHash(keyHash);
  }

  listApiKeys(workspaceId: string, page: Page): Promise<{ keys: ApiKeyRecord[]; total: number }> {
    return this.parts.workspaceKeys.listApiKeys(workspaceId, page);
  }

  registerApiKey(key: ApiKeyRecord): Promise<'created' | 'exists'> {
    return this.parts.workspaceKeys.registerApiKey(key);
  }

  revokeApiKey(workspaceId: string, id: string): Promise<RevokeKeyOutcome> {
    return this.parts.workspaceKeys.revokeApiKey(workspaceId, id);
  }

  touchApiKey(id: string, at: string): Promise<void> {
    return this.parts.workspaceKeys.touchApiKey(id, at);
  }

  setWorkspaceStatus(
    id: string,
    status: WorkspaceRecord['status'],
  ): Promise<{ workspace: WorkspaceRecord; revokedCredentialIds: string[] } | undefined> {
    return this.parts.workspaceKeys.setWorkspaceStatus(id, status);
  }

  createUser(user: UserRecord): Promise<boolean> {
    return this.parts.members.createUser(user);
  }

  getUser(id: string): Promise<UserRecord | undefined> {
    return this.parts.members.getUser(id);
  }

  findUserByEmail(realmId: string, email: string): Promise<UserRecord | undefined> {
    return this.parts.members.findUserByEmail(realmId, email);
  }

  addMember(membership: Omit<MembershipRecord, 'userId'>, user: UserRecord): Promise<AddMemberOutcome> {
    return this.parts.members.addMember(membership, user);
  }

  getMember(workspaceId: string, userId: string): Promise<MemberRecord | undefined> {
    return this.parts.members.getMember(workspaceId, userId);
  }

  listMembers(workspaceId: string, page: Page): Promise<{ members: MemberRecord[]; total: number }> {
    return this.parts.members.listMembers(workspaceId, page);
  }

  changeMember(workspaceId: string, userId: string, expected: MemberState, next: MemberState, revoke: boolean): Promise<MemberChangeOutcome> {
    return this.parts.members.changeMember(workspaceId, userId, expected, next, revoke);
  }

  removeMember(workspaceId: string, userId: string, expected: MemberState): Promise<MemberChangeOutcome> {
    return this.parts.members.removeMember(workspaceId, userId, expected);
  }

  activeAccessTokenIds(workspaceId: string, userId: string): Promise<string[]> {
    return this.parts.members.activeAccessTokenIds(workspaceId, userId);
  }

  membershipsOf(userId: string): Promise<{ workspace: WorkspaceRecord; role: Role }[]> {
    return this.parts.members.membershipsOf(userId);
  }

  setInitialPassword(userId: string, passwordHash: string): Promise<boolean> {
    return this.parts.members.setInitialPassword(userId, passwordHash);
  }

  replacePasswordHash(userId: string, expected: string, passwordHash: string): Promise<boolean> {
    return this.parts.members.replacePasswordHash(userId, expected, passwordHash);
  }

  registerCustomer(user: UserRecord, workspace: WorkspaceRecord, membership: MembershipRecord): Promise<RegisterCustomerOutcome> {
    return this.parts.customers.registerCustomer(user, workspace, membership);
  }

  listCustomers(platformWorkspaceId: string, query: string, page: Page): Promise<{ customers: CustomerRecord[]; total: number }> {
    return this.parts.customers.listCustomers(platformWorkspaceId, query, page);
  }

  getCustomer(platformWorkspaceId: string, userId: string): Promise<CustomerRecord | undefined> {
    return this.parts.customers.getCustomer(platformWorkspaceId, userId);
  }

  createClient(client: OAuthClientRecord): Promise<void> {
    return this.parts.oauth.createClient(client);
  }

  ensureClient(client: OAuthClientRecord): Promise<'created' | 'exists'> {
    return this.parts.oauth.ensureClient(client);
  }

  getClient(id: string): Promise<OAuthClientRecord | undefined> {
    return this.parts.oauth.getClient(id);
  }

  createAuthorizationCode(code: AuthorizationCodeRecord): Promise<void> {
    return this.parts.oauth.createAuthorizationCode(code);
  }

  findAuthorizationCode(codeHash: string): Promise<AuthorizationCodeRecord | undefined> {
    return this.parts.oauth.findAuthorizationCode(codeHash);
  }

  redeemAuthorizationCode(codeId: string, grant: GrantRecord, tokens: TokenRecord[]): Promise<RedeemOutcome> {
    return this.parts.oauth.redeemAuthorizationCode(codeId, grant, tokens);
  }

  issueGrant(grant: GrantRecord, tokens: TokenRecord[]): Promise<void> {
    return this.parts.oauth.issueGrant(grant, tokens);
  }

  findToken(tokenHash: string): Promise<TokenRecord | undefined> {
    return this.parts.oauth.findToken(tokenHash);
  }

  getGrant(id: string): Promise<GrantRecord | undefined> {
    return this.parts.oauth.getGrant(id);
  }

  rotateRefreshToken(tokenId: string, tokens: TokenRecord[]): Promise<RotateOutcome> {
    return this.parts.oauth.rotateRefreshToken(tokenId, tokens);
  }

  revokeToken(tokenId: string): Promise<string[]> {
    return this.parts.oauth.revokeToken(tokenId);
  }

  revokeGrant(grantId: string): Promise<string[]> {
    return this.parts.oauth.revokeGrant(grantId);
  }

  revokeUserCredentials(workspaceId: string, userId: string): Promise<string[]> {
    return this.parts.oauth.revokeUserCredentials(workspaceId, userId);
  }

  abstract close(): Promise<void>;
}
