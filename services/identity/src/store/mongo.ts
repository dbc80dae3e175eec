// IdentityStore on MongoDB: the service's own database; unique indexes on the root marker, key,
// token and code hashes, e-mails and (workspace, user) memberships; a transaction wherever two
// writes must agree (MongoDB transactions need a replica set, as production runs).
import type { ClientSession, Collection, Filter } from 'mongodb';
import { connectMongo, isDuplicateKey, type MongoHandle, type Page, type Role } from '@voice/runtime';
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

interface WorkspaceDocument {
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
}

interface ApiKeyDocument {
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

interface UserDocument {
  _id: string;
  email: string;
  name: string;
  password_hash: string | null;
  created_at: string;
}

interface MemberDocument {
  workspace_id: string;
  user_id: string;
  role: string;
  status: string;
  created_at: string;
}

interface ClientDocument {
  _id: string;
  name: string;
  redirect_uris: string[];
  scopes: string[];
  grant_types: string[];
  token_endpoint_auth_method: string;
  secret_hash: string | null;
  client_uri: string | null;
  created_at: string;
}

interface CodeDocument {
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

interface GrantDocument {
  _id: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  scopes: string[];
  resource: string;
  status: string;
  created_at: string;
}

interface TokenDocument {
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

const workspaceDocument = (w: WorkspaceRecord): WorkspaceDocument => ({
  _id: w.id,
  name: w.name,
  plan: w.plan,
  status: w.status,
  parent_workspace_id: w.parentWorkspaceId,
  ...(w.parentWorkspaceId === null ? { root: true as const } : {}),
  created_at: w.createdAt,
});

const workspaceRecord = (d: WorkspaceDocument): WorkspaceRecord => ({
  id: d._id,
  name: d.name,
  plan: d.plan,
  status: d.status as WorkspaceRecord['status'],
  parentWorkspaceId: d.parent_workspace_id,
  createdAt: d.created_at,
});

const keyDocument = (k: ApiKeyRecord): ApiKeyDocument => ({
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

const keyRecord = (d: ApiKeyDocument): ApiKeyRecord => ({
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

const userDocument = (u: UserRecord): UserDocument => ({
  _id: u.id,
  email: u.email,
  name: u.name,
  password_hash: u.passwordHash,
  created_at: u.createdAt,
});

const userRecord = (d: UserDocument): UserRecord => ({
  id: d._id,
  email: d.email,
  name: d.name,
  passwordHash: d.password_hash,
  createdAt: d.created_at,
});

const memberRecord = (d: MemberDocument, user: UserDocument): MemberRecord => ({
  workspaceId: d.workspace_id,
  userId: d.user_id,
  role: d.role as Role,
  status: d.status as MemberRecord['status'],
  createdAt: d.created_at,
  email: user.email,
  name: user.name,
});

const clientDocument = (c: OAuthClientRecord): ClientDocument => ({
  _id: c.id,
  name: c.name,
  redirect_uris: c.redirectUris,
  scopes: c.scopes,
  grant_types: c.grantTypes,
  token_endpoint_auth_method: c.tokenEndpointAuthMethod,
  secret_hash: c.secretHash,
  client_uri: c.clientUri,
  created_at: c.createdAt,
});

const clientRecord = (d: ClientDocument): OAuthClientRecord => ({
  id: d._id,
  name: d.name,
  redirectUris: d.redirect_uris,
  scopes: d.scopes,
  grantTypes: d.grant_types,
  tokenEndpointAuthMethod: d.token_endpoint_auth_method as OAuthClientRecord['tokenEndpointAuthMethod'],
  secretHash: d.secret_hash,
  clientUri: d.client_uri,
  createdAt: d.created_at,
});

const codeDocument = (c: AuthorizationCodeRecord): CodeDocument => ({
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

const codeRecord = (d: CodeDocument): AuthorizationCodeRecord => ({
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

const grantDocument = (g: GrantRecord): GrantDocument => ({
  _id: g.id,
  client_id: g.clientId,
  user_id: g.userId,
  workspace_id: g.workspaceId,
  scopes: g.scopes,
  resource: g.resource,
  status: g.status,
  created_at: g.createdAt,
});

const grantRecord = (d: GrantDocument): GrantRecord => ({
  id: d._id,
  clientId: d.client_id,
  userId: d.user_id,
  workspaceId: d.workspace_id,
  scopes: d.scopes,
  resource: d.resource,
  status: d.status as GrantRecord['status'],
  createdAt: d.created_at,
});

const tokenDocument = (t: TokenRecord): TokenDocument => ({
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

const tokenRecord = (d: TokenDocument): TokenRecord => ({
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

interface Collections {
  workspaces: Collection<WorkspaceDocument>;
  keys: Collection<ApiKeyDocument>;
  users: Collection<UserDocument>;
  members: Collection<MemberDocument>;
  clients: Collection<ClientDocument>;
  codes: Collection<CodeDocument>;
  grants: Collection<GrantDocument>;
  tokens: Collection<TokenDocument>;
}

/** Ends a member-change transaction with an outcome that is not an error to the caller. */
class MemberChangeRefused extends Error {
  constructor(readonly outcome: MemberChangeOutcome) {
    super(outcome.kind);
  }
}

export class MongoIdentityStore implements IdentityStore {
  private readonly workspaces: Collection<WorkspaceDocument>;
  private readonly keys: Collection<ApiKeyDocument>;
  private readonly users: Collection<UserDocument>;
  private readonly members: Collection<MemberDocument>;
  private readonly clients: Collection<ClientDocument>;
  private readonly codes: Collection<CodeDocument>;
  private readonly grants: Collection<GrantDocument>;
  private readonly tokens: Collection<TokenDocument>;

  private constructor(private readonly handle: MongoHandle, collections: Collections) {
    this.workspaces = collections.workspaces;
    this.keys = collections.keys;
    this.users = collections.users;
    this.members = collections.members;
    this.clients = collections.clients;
    this.codes = collections.codes;
    this.grants = collections.grants;
    this.tokens = collections.tokens;
  }

  static async connect(uri: string, databaseName: string): Promise<MongoIdentityStore> {
    const handle = await connectMongo(uri, databaseName);
    const db = handle.db;
    const collections: Collections = {
      workspaces: db.collection<WorkspaceDocument>('workspaces'),
      keys: db.collection<ApiKeyDocument>('api_keys'),
      users: db.collection<UserDocument>('users'),
      members: db.collection<MemberDocument>('members'),
      clients: db.collection<ClientDocument>('oauth_clients'),
      codes: db.collection<CodeDocument>('oauth_codes'),
      grants: db.collection<GrantDocument>('oauth_grants'),
      tokens: db.collection<TokenDocument>('oauth_tokens'),
    };
    const { workspaces, keys, users, members, codes, grants, tokens } = collections;
    await workspaces.createIndex({ root: 1 }, { unique: true, sparse: true, name: 'one_root' });
    await keys.createIndex({ key_hash: 1 }, { unique: true, name: 'unique_key_hash' });
    await keys.createIndex({ principal_id: 1 }, { unique: true, name: 'unique_principal' });
    await keys.createIndex({ workspace_id: 1, status: 1, created_at: -1, _id: -1 }, { name: 'keys_by_workspace' });
    await users.createIndex({ email: 1 }, { unique: true, name: 'unique_email' });
    await members.createIndex({ workspace_id: 1, user_id: 1 }, { unique: true, name: 'unique_member' });
    await members.createIndex({ workspace_id: 1, created_at: -1, user_id: -1 }, { name: 'members_newest_first' });
    await members.createIndex({ user_id: 1 }, { name: 'members_by_user' });
    await codes.createIndex({ code_hash: 1 }, { unique: true, name: 'unique_code_hash' });
    await codes.createIndex({ workspace_id: 1, user_id: 1, status: 1 }, { name: 'codes_by_member' });
    await grants.createIndex({ workspace_id: 1, user_id: 1, status: 1 }, { name: 'grants_by_member' });
    await tokens.createIndex({ token_hash: 1 }, { unique: true, name: 'unique_token_hash' });
    await tokens.createIndex({ grant_id: 1, status: 1 }, { name: 'tokens_by_grant' });
    await tokens.createIndex({ workspace_id: 1, user_id: 1, status: 1 }, { name: 'tokens_by_member' });
    return new MongoIdentityStore(handle, collections);
  }

  async bootstrapRoot(workspace: WorkspaceRecord, key: ApiKeyRecord): Promise<'created' | 'exists'> {
    const session = this.handle.client.startSession();
    try {
      let outcome: 'created' | 'exists' = 'created';
      await session.withTransaction(async () => {
        outcome = 'created';
        if (await this.workspaces.findOne({ root: true }, { session })) {
          outcome = 'exists';
          return;
        }
        await this.workspaces.insertOne(workspaceDocument(workspace), { session });
        await this.keys.insertOne(keyDocument(key), { session });
      });
      return outcome;
    } catch (error) {
      // Another replica bootstrapped at the same moment.
      if (isDuplicateKey(error)) return 'exists';
      throw error;
    } finally {
      await session.endSession();
    }
  }

  async rootWorkspace(): Promise<WorkspaceRecord | undefined> {
    const doc = await this.workspaces.findOne({ root: true });
    return doc ? workspaceRecord(doc) : undefined;
  }

  async createWorkspace(workspace: WorkspaceRecord): Promise<void> {
    await this.workspaces.insertOne(workspaceDocument(workspace));
  }

  async getWorkspace(id: string): Promise<WorkspaceRecord | undefined> {
    const doc = await this.workspaces.findOne({ _id: id });
    return doc ? workspaceRecord(doc) : undefined;
  }

  async createApiKey(key: ApiKeyRecord): Promise<void> {
    await this.keys.insertOne(keyDocument(key));
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const doc = await this.keys.findOne({ key_hash: keyHash });
    return doc ? keyRecord(doc) : undefined;
  }

  async listApiKeys(workspaceId: string, page: Page): Promise<{ keys: ApiKeyRecord[]; total: number }> {
    const query = { workspace_id: workspaceId, status: 'active' };
    const [total, docs] = await Promise.all([
      this.keys.countDocuments(query),
      this.keys.find(query).sort({ created_at: -1, _id: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { keys: docs.map(keyRecord), total };
  }

  async revokeApiKey(workspaceId: string, id: string): Promise<boolean> {
    const result = await this.keys.updateOne({ _id: id, workspace_id: workspaceId, status: 'active' }, { $set: { status: 'revoked' } });
    return result.modifiedCount === 1;
  }

  async touchApiKey(id: string, at: string): Promise<void> {
    await this.keys.updateOne({ _id: id }, { $set: { last_used_at: at } });
  }

  async setWorkspaceStatus(
    id: string,
    status: WorkspaceRecord['status'],
  ): Promise<{ workspace: WorkspaceRecord; revokedCredentialIds: string[] } | undefined> {
    return this.transaction(async (session) => {
      const updated = await this.workspaces.findOneAndUpdate({ _id: id }, { $set: { status } }, { session, returnDocument: 'after' });
      if (!updated) return undefined;
      const revoked: string[] = [];
      if (status === 'suspended') {
        const scope = { workspace_id: id };
        const keyIds = await this.activeIds(this.keys, scope, session);
        await this.keys.updateMany({ ...scope, status: 'active' }, { $set: { status: 'revoked' } }, { session });
        revoked.push(...keyIds, ...(await this.revokeTokensWhere(scope, session)));
        await this.grants.updateMany({ ...scope, status: 'active' }, { $set: { status: 'revoked' } }, { session });
        await this.codes.updateMany({ ...scope, status: 'issued' }, { $set: { status: 'revoked' } }, { session });
      }
      return { workspace: workspaceRecord(updated), revokedCredentialIds: revoked };
    });
  }

  async createUser(user: UserRecord): Promise<boolean> {
    try {
      await this.users.insertOne(userDocument(user));
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async getUser(id: string): Promise<UserRecord | undefined> {
    const doc = await this.users.findOne({ _id: id });
    return doc ? userRecord(doc) : undefined;
  }

  async findUserByEmail(email: string): Promise<UserRecord | undefined> {
    const doc = await this.users.findOne({ email });
    return doc ? userRecord(doc) : undefined;
  }

  async addMember(membership: Omit<MembershipRecord, 'userId'>, user: UserRecord): Promise<AddMemberOutcome> {
    // A duplicate key is either the membership (already a member) or the e-mail, when another
    // request created the user meanwhile; the second attempt tells them apart.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.transaction(async (session): Promise<AddMemberOutcome> => {
          const existing = await this.users.findOne({ email: user.email }, { session });
          const owner = existing ?? userDocument(user);
          if (!existing) await this.users.insertOne(owner, { session });
          if (await this.members.findOne({ workspace_id: membership.workspaceId, user_id: owner._id }, { session })) {
            return { kind: 'already_member' };
          }
          const doc: MemberDocument = {
            workspace_id: membership.workspaceId,
            user_id: owner._id,
            role: membership.role,
            status: membership.status,
            created_at: membership.createdAt,
          };
          await this.members.insertOne(doc, { session });
          return { kind: 'added', member: memberRecord(doc, owner) };
        });
      } catch (error) {
        if (!isDuplicateKey(error) || attempt > 0) throw error;
      }
    }
  }

  async getMember(workspaceId: string, userId: string): Promise<MemberRecord | undefined> {
    const doc = await this.members.findOne({ workspace_id: workspaceId, user_id: userId });
    return doc ? (await this.withUsers([doc]))[0] : undefined;
  }

  async listMembers(workspaceId: string, page: Page): Promise<{ members: MemberRecord[]; total: number }> {
    const query = { workspace_id: workspaceId };
    const [total, docs] = await Promise.all([
      this.members.countDocuments(query),
      this.members.find(query).sort({ created_at: -1, user_id: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { members: await this.withUsers(docs), total };
  }

  async changeMember(workspaceId: string, userId: string, expected: MemberState, next: MemberState, revoke: boolean): Promise<MemberChangeOutcome> {
    return this.memberTransaction(workspaceId, userId, expected, next, async (session) => {
      await this.members.updateOne({ workspace_id: workspaceId, user_id: userId }, { $set: { role: next.role, status: next.status } }, { session });
      const revokedCredentialIds = revoke ? await this.revokeMemberCredentials(workspaceId, userId, session) : [];
      const doc = await this.members.findOne({ workspace_id: workspaceId, user_id: userId }, { session });
      const user = await this.users.findOne({ _id: userId }, { session });
      return { kind: 'changed', member: doc && user ? memberRecord(doc, user) : undefined, revokedCredentialIds };
    });
  }

  async removeMember(workspaceId: string, userId: string, expected: MemberState): Promise<MemberChangeOutcome> {
    return this.memberTransaction(workspaceId, userId, expected, undefined, async (session) => {
      await this.members.deleteOne({ workspace_id: workspaceId, user_id: userId }, { session });
      return { kind: 'changed', member: undefined, revokedCredentialIds: await this.revokeMemberCredentials(workspaceId, userId, session) };
    });
  }

  async activeAccessTokenIds(workspaceId: string, userId: string): Promise<string[]> {
    const docs = await this.tokens
      .find({ workspace_id: workspaceId, user_id: userId, kind: 'access', status: 'active' }, { projection: { _id: 1 } })
      .sort({ _id: 1 })
      .toArray();
    return docs.map((d) => d._id);
  }

  async membershipsOf(userId: string): Promise<{ workspace: WorkspaceRecord; role: Role }[]> {
    const docs = await this.members.find({ user_id: userId, status: 'active' }).sort({ created_at: 1, workspace_id: 1 }).toArray();
    const workspaces = await this.workspaces.find({ _id: { $in: docs.map((d) => d.workspace_id) }, status: 'active' }).toArray();
    const byId = new Map(workspaces.map((w) => [w._id, workspaceRecord(w)]));
    return docs.flatMap((d) => {
      const workspace = byId.get(d.workspace_id);
      return workspace ? [{ workspace, role: d.role as Role }] : [];
    });
  }

  async createClient(client: OAuthClientRecord): Promise<void> {
    await this.clients.insertOne(clientDocument(client));
  }

  async getClient(id: string): Promise<OAuthClientRecord | undefined> {
    const doc = await this.clients.findOne({ _id: id });
    return doc ? clientRecord(doc) : undefined;
  }

  async createAuthorizationCode(code: AuthorizationCodeRecord): Promise<void> {
    await this.codes.insertOne(codeDocument(code));
  }

  async findAuthorizationCode(codeHash: string): Promise<AuthorizationCodeRecord | undefined> {
    const doc = await this.codes.findOne({ code_hash: codeHash });
    return doc ? codeRecord(doc) : undefined;
  }

  async redeemAuthorizationCode(codeId: string, grant: GrantRecord, tokens: TokenRecord[]): Promise<RedeemOutcome> {
    return this.transaction(async (session): Promise<RedeemOutcome> => {
      const claimed = await this.codes.updateOne({ _id: codeId, status: 'issued' }, { $set: { status: 'used', grant_id: grant.id } }, { session });
      if (claimed.modifiedCount === 1) {
        await this.grants.insertOne(grantDocument(grant), { session });
        if (tokens.length > 0) await this.tokens.insertMany(tokens.map(tokenDocument), { session });
        return { kind: 'redeemed' };
      }
      const code = await this.codes.findOne({ _id: codeId }, { session });
      if (code?.status !== 'used') return { kind: 'unavailable' };
      return { kind: 'reused', revokedCredentialIds: code.grant_id ? await this.revokeGrantIn(code.grant_id, session) : [] };
    });
  }

  async findToken(tokenHash: string): Promise<TokenRecord | undefined> {
    const doc = await this.tokens.findOne({ token_hash: tokenHash });
    return doc ? tokenRecord(doc) : undefined;
  }

  async getGrant(id: string): Promise<GrantRecord | undefined> {
    const doc = await this.grants.findOne({ _id: id });
    return doc ? grantRecord(doc) : undefined;
  }

  async rotateRefreshToken(tokenId: string, tokens: TokenRecord[]): Promise<RotateOutcome> {
    return this.transaction(async (session): Promise<RotateOutcome> => {
      const current = await this.tokens.findOne({ _id: tokenId, kind: 'refresh' }, { session });
      if (!current) return { kind: 'unavailable' };
      if (current.status === 'used') return { kind: 'reused', revokedCredentialIds: await this.revokeGrantIn(current.grant_id, session) };
      const grant = await this.grants.findOne({ _id: current.grant_id, status: 'active' }, { session });
      if (current.status !== 'active' || !grant) return { kind: 'unavailable' };
      // Two rotations of one token both write this document: the later one conflicts, is retried and then sees 'used'.
      const claimed = await this.tokens.updateOne({ _id: tokenId, status: 'active' }, { $set: { status: 'used' } }, { session });
      if (claimed.modifiedCount !== 1) return { kind: 'unavailable' };
      if (tokens.length > 0) await this.tokens.insertMany(tokens.map(tokenDocument), { session });
      return { kind: 'rotated' };
    });
  }

  async revokeToken(tokenId: string): Promise<string[]> {
    const result = await this.tokens.updateOne({ _id: tokenId, status: 'active' }, { $set: { status: 'revoked' } });
    return result.modifiedCount === 1 ? [tokenId] : [];
  }

  async revokeGrant(grantId: string): Promise<string[]> {
    return this.transaction((session) => this.revokeGrantIn(grantId, session));
  }

  private async transaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T> {
    const session = this.handle.client.startSession();
    try {
      return await session.withTransaction(() => work(session));
    } finally {
      await session.endSession();
    }
  }

  /**
   * Runs `work` once the member is found in the `expected` state and the change keeps an active
   * owner; `next` undefined is a removal.
   */
  private async memberTransaction(
    workspaceId: string,
    userId: string,
    expected: MemberState,
    next: MemberState | undefined,
    work: (session: ClientSession) => Promise<MemberChangeOutcome>,
  ): Promise<MemberChangeOutcome> {
    try {
      return await this.transaction(async (session) => {
        await this.workspaces.updateOne({ _id: workspaceId }, { $inc: { members_revision: 1 } }, { session });
        const current = await this.members.findOne({ workspace_id: workspaceId, user_id: userId }, { session });
        if (!current) throw new MemberChangeRefused({ kind: 'not_found' });
        if (current.role !== expected.role || current.status !== expected.status) throw new MemberChangeRefused({ kind: 'stale' });
        const wasActiveOwner = current.role === 'owner' && current.status === 'active';
        const staysActiveOwner = next?.role === 'owner' && next.status === 'active';
        if (wasActiveOwner && !staysActiveOwner) {
          const others = await this.members.countDocuments(
            { workspace_id: workspaceId, user_id: { $ne: userId }, role: 'owner', status: 'active' },
            { session, limit: 1 },
          );
          if (others === 0) throw new MemberChangeRefused({ kind: 'last_owner' });
        }
        return work(session);
      });
    } catch (error) {
      if (error instanceof MemberChangeRefused) return error.outcome;
      throw error;
    }
  }

  private async withUsers(docs: MemberDocument[]): Promise<MemberRecord[]> {
    const users = await this.users.find({ _id: { $in: docs.map((d) => d.user_id) } }).toArray();
    const byId = new Map(users.map((u) => [u._id, u]));
    return docs.flatMap((d) => {
      const user = byId.get(d.user_id);
      return user ? [memberRecord(d, user)] : [];
    });
  }

  private async activeIds<T extends { _id: string; status: string }>(
    collection: Collection<T>,
    filter: Record<string, string>,
    session: ClientSession,
  ): Promise<string[]> {
    const docs = await collection.find({ ...filter, status: 'active' } as Filter<T>, { session, projection: { _id: 1 } }).toArray();
    return docs.map((d) => d._id as string);
  }

  /** Revokes the matching active and used tokens; the ids of the active ones, which stopped working. */
  private async revokeTokensWhere(filter: Record<string, string>, session: ClientSession): Promise<string[]> {
    const active = await this.activeIds(this.tokens, filter, session);
    await this.tokens.updateMany({ ...filter, status: { $in: ['active', 'used'] } }, { $set: { status: 'revoked' } }, { session });
    return active;
  }

  private async revokeMemberCredentials(workspaceId: string, userId: string, session: ClientSession): Promise<string[]> {
    const member = { workspace_id: workspaceId, user_id: userId };
    const revoked = await this.revokeTokensWhere(member, session);
    await this.grants.updateMany({ ...member, status: 'active' }, { $set: { status: 'revoked' } }, { session });
    await this.codes.updateMany({ ...member, status: 'issued' }, { $set: { status: 'revoked' } }, { session });
    return revoked;
  }

  private async revokeGrantIn(grantId: string, session: ClientSession): Promise<string[]> {
    await this.grants.updateOne({ _id: grantId }, { $set: { status: 'revoked' } }, { session });
    return this.revokeTokensWhere({ grant_id: grantId }, session);
  }

  /** Tests only: removes the whole database this store owns. */
  async dropDatabase(): Promise<void> {
    await this.handle.db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
