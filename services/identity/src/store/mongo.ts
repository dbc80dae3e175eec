// IdentityStore on MongoDB: the service's own database; unique indexes on the root marker, key,
// token and code hashes, e-mails and (workspace, user) memberships; a transaction wherever two
// writes must agree (MongoDB transactions need a replica set, as production runs).
import { connectMongo, type MongoHandle, type Page, type Role } from '@voice/runtime';
import type {
  AddMemberOutcome,
  ApiKeyRecord,
  AuthorizationCodeRecord,
  GrantRecord,
  IdentityStore,
  MemberChangeOutcome,
  MemberRecord,
  MembershipRecord,
  MemberState,
  OAuthClientRecord,
  RedeemOutcome,
  RotateOutcome,
  TokenRecord,
  UserRecord,
  WorkspaceRecord,
} from './store.js';
import { identityCollections, type Collections } from './mongo/documents.js';
import { createIndexes } from './mongo/indexes.js';
import { MongoOAuthStore } from './mongo/oauth.js';
import { MongoMemberStore } from './mongo/users-and-members.js';
import { MongoWorkspaceKeyStore } from './mongo/workspaces-and-keys.js';

export class MongoIdentityStore implements IdentityStore {
  private readonly workspaceKeys: MongoWorkspaceKeyStore;
  private readonly members: MongoMemberStore;
  private readonly oauth: MongoOAuthStore;

  private constructor(private readonly handle: MongoHandle, collections: Collections) {
    this.workspaceKeys = new MongoWorkspaceKeyStore(handle, collections);
    this.members = new MongoMemberStore(handle, collections);
    this.oauth = new MongoOAuthStore(handle, collections);
  }

  static async connect(uri: string, databaseName: string): Promise<MongoIdentityStore> {
    const handle = await connectMongo(uri, databaseName);
    const collections = identityCollections(handle.db);
    await createIndexes(collections);
    return new MongoIdentityStore(handle, collections);
  }

  bootstrapRoot(workspace: WorkspaceRecord, key: ApiKeyRecord): Promise<'created' | 'exists'> {
    return this.workspaceKeys.bootstrapRoot(workspace, key);
  }

  rootWorkspace(): Promise<WorkspaceRecord | undefined> {
    return this.workspaceKeys.rootWorkspace();
  }

  createWorkspace(workspace: WorkspaceRecord): Promise<void> {
    return this.workspaceKeys.createWorkspace(workspace);
  }

  getWorkspace(id: string): Promise<WorkspaceRecord | undefined> {
    return this.workspaceKeys.getWorkspace(id);
  }

  createApiKey(key: ApiKeyRecord): Promise<void> {
    return this.workspaceKeys.createApiKey(key);
  }

  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    return this.workspaceKeys.findApiKeyByHash(keyHash);
  }

  listApiKeys(workspaceId: string, page: Page): Promise<{ keys: ApiKeyRecord[]; total: number }> {
    return this.workspaceKeys.listApiKeys(workspaceId, page);
  }

  revokeApiKey(workspaceId: string, id: string): Promise<boolean> {
    return this.workspaceKeys.revokeApiKey(workspaceId, id);
  }

  touchApiKey(id: string, at: string): Promise<void> {
    return this.workspaceKeys.touchApiKey(id, at);
  }

  setWorkspaceStatus(
    id: string,
    status: WorkspaceRecord['status'],
  ): Promise<{ workspace: WorkspaceRecord; revokedCredentialIds: string[] } | undefined> {
    return this.workspaceKeys.setWorkspaceStatus(id, status);
  }

  createUser(user: UserRecord): Promise<boolean> {
    return this.members.createUser(user);
  }

  getUser(id: string): Promise<UserRecord | undefined> {
    return this.members.getUser(id);
  }

  findUserByEmail(email: string): Promise<UserRecord | undefined> {
    return this.members.findUserByEmail(email);
  }

  addMember(membership: Omit<MembershipRecord, 'userId'>, user: UserRecord): Promise<AddMemberOutcome> {
    return this.members.addMember(membership, user);
  }

  getMember(workspaceId: string, userId: string): Promise<MemberRecord | undefined> {
    return this.members.getMember(workspaceId, userId);
  }

  listMembers(workspaceId: string, page: Page): Promise<{ members: MemberRecord[]; total: number }> {
    return this.members.listMembers(workspaceId, page);
  }

  changeMember(workspaceId: string, userId: string, expected: MemberState, next: MemberState, revoke: boolean): Promise<MemberChangeOutcome> {
    return this.members.changeMember(workspaceId, userId, expected, next, revoke);
  }

  removeMember(workspaceId: string, userId: string, expected: MemberState): Promise<MemberChangeOutcome> {
    return this.members.removeMember(workspaceId, userId, expected);
  }

  activeAccessTokenIds(workspaceId: string, userId: string): Promise<string[]> {
    return this.members.activeAccessTokenIds(workspaceId, userId);
  }

  membershipsOf(userId: string): Promise<{ workspace: WorkspaceRecord; role: Role }[]> {
    return this.members.membershipsOf(userId);
  }

  createClient(client: OAuthClientRecord): Promise<void> {
    return this.oauth.createClient(client);
  }

  getClient(id: string): Promise<OAuthClientRecord | undefined> {
    return this.oauth.getClient(id);
  }

  createAuthorizationCode(code: AuthorizationCodeRecord): Promise<void> {
    return this.oauth.createAuthorizationCode(code);
  }

  findAuthorizationCode(codeHash: string): Promise<AuthorizationCodeRecord | undefined> {
    return this.oauth.findAuthorizationCode(codeHash);
  }

  redeemAuthorizationCode(codeId: string, grant: GrantRecord, tokens: TokenRecord[]): Promise<RedeemOutcome> {
    return this.oauth.redeemAuthorizationCode(codeId, grant, tokens);
  }

  findToken(tokenHash: string): Promise<TokenRecord | undefined> {
    return this.oauth.findToken(tokenHash);
  }

  getGrant(id: string): Promise<GrantRecord | undefined> {
    return this.oauth.getGrant(id);
  }

  rotateRefreshToken(tokenId: string, tokens: TokenRecord[]): Promise<RotateOutcome> {
    return this.oauth.rotateRefreshToken(tokenId, tokens);
  }

  revokeToken(tokenId: string): Promise<string[]> {
    return this.oauth.revokeToken(tokenId);
  }

  revokeGrant(grantId: string): Promise<string[]> {
    return this.oauth.revokeGrant(grantId);
  }

  /** Tests only: removes the whole database this store owns. */
  async dropDatabase(): Promise<void> {
    await this.handle.db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
