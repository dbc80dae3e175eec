// The behaviour every IdentityStore must have, written once and run against each adapter.
// Each test gets a store of its own: the root workspace is global to a store.
import type { Role } from '@voice/runtime/access';
import { sha256Hex } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import type {
  ApiKeyRecord,
  AuthorizationCodeRecord,
  GrantRecord,
  IdentityStore,
  MemberRecord,
  MembershipRecord,
  MemberState,
  OAuthClientRecord,
  TokenRecord,
  UserRecord,
  WorkspaceRecord,
} from '../src/store/store.js';

let clock = Date.parse('2026-01-01T00:00:00.000Z');
const tick = (): string => new Date((clock += 1000)).toISOString();

export function workspaceRecord(overrides: Partial<WorkspaceRecord> = {}): WorkspaceRecord {
  return {
    id: newId(),
    name: `Workspace ${newId().slice(0, 8)}`,
    plan: 'pro',
    status: 'active',
    parentWorkspaceId: null,
    createdAt: tick(),
    ...overrides,
  };
}

export function apiKeyRecord(workspaceId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const secret = `svc_${newId()}`;
  return {
    id: newId(),
    workspaceId,
    name: 'ci key',
    principalId: newId(),
    keyHash: sha256Hex(secret),
    keyHint: `svc_…${secret.slice(-4)}`,
    scopes: ['calls:read', 'leads:write'],
    status: 'active',
    createdAt: tick(),
    lastUsedAt: null,
    ...overrides,
  };
}

/** The realm of users the tests create unless they say otherwise. */
export const testRealm = newId();

export function userRecord(overrides: Partial<UserRecord> = {}): UserRecord {
  const id = newId();
  return { id, realmId: testRealm, email: `user-${id.slice(0, 8)}@example.com`, name: 'A User', passwordHash: 'scrypt$16384$8$1$c2FsdA==$aGFzaA==', createdAt: tick(), ...overrides };
}

export function clientRecord(overrides: Partial<OAuthClientRecord> = {}): OAuthClientRecord {
  return {
    id: newId(),
    name: 'Desktop app',
    redirectUris: ['https://app.example/cb', 'http://127.0.0.1/cb'],
    scopes: ['calls:read', 'assistants:write'],
    grantTypes: ['authorization_code', 'refresh_token'],
    tokenEndpointAuthMethod: 'client_secret_basic',
    secretHash: sha256Hex(`svc_cs_${newId()}`),
    clientUri: 'https://app.example',
    realmId: testRealm,
    createdAt: tick(),
    ...overrides,
  };
}

/** Where a code, grant or token belongs. */
interface Binding {
  workspaceId: string;
  userId: string;
  clientId?: string;
}

export function codeRecord(binding: Binding, overrides: Partial<AuthorizationCodeRecord> = {}): AuthorizationCodeRecord {
  return {
    id: newId(),
    codeHash: sha256Hex(`svc_ac_${newId()}`),
    clientId: binding.clientId ?? newId(),
    userId: binding.userId,
    workspaceId: binding.workspaceId,
    redirectUri: 'https://app.example/cb',
    scopes: ['calls:read'],
    codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    resource: 'https://api.example/mcp',
    status: 'issued',
    grantId: null,
    expiresAt: '2099-01-01T00:00:00.000Z',
    createdAt: tick(),
    ...overrides,
  };
}

export function grantRecord(binding: Binding, overrides: Partial<GrantRecord> = {}): GrantRecord {
  return {
    id: newId(),
    clientId: binding.clientId ?? newId(),
    userId: binding.userId,
    workspaceId: binding.workspaceId,
    scopes: ['calls:read', 'leads:write'],
    resource: '',
    status: 'active',
    createdAt: tick(),
    ...overrides,
  };
}

export function tokenRecord(grant: GrantRecord, kind: TokenRecord['kind'], overrides: Partial<TokenRecord> = {}): TokenRecord {
  return {
    id: newId(),
    grantId: grant.id,
    kind,
    tokenHash: sha256Hex(`svc_${kind === 'access' ? 'at' : 'rt'}_${newId()}`),
    clientId: grant.clientId,
    userId: grant.userId,
    workspaceId: grant.workspaceId,
    scopes: grant.scopes,
    status: 'active',
    expiresAt: '2099-01-01T00:00:00.000Z',
    createdAt: tick(),
    ...overrides,
  };
}

/**
 * Asserts that the store refused the write. Not `rejects.toThrow()`: better-sqlite3 builds its
 * errors in the module realm that first loaded it, which in a reused Jest worker is not this
 * file's, so they fail Jest's Error check although they were thrown.
 */
async function expectRefused(write: Promise<unknown>): Promise<void> {
  let refused = false;
  try {
    await write;
  } catch {
    refused = true;
  }
  expect(refused).toBe(true);
}

export function identityStoreContract(open: () => Promise<IdentityStore>): void {
  let store: IdentityStore;

  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => {
    await store.close();
  });

  /** The root (with its unrestricted key) and two ordinary workspaces under it. */
  async function seed(): Promise<{ root: WorkspaceRecord; rootKey: ApiKeyRecord; workspace: WorkspaceRecord; other: WorkspaceRecord }> {
    const root = workspaceRecord({ name: 'Root platform', plan: 'enterprise' });
    const rootKey = apiKeyRecord(root.id, { name: 'root', scopes: null });
    expect(await store.bootstrapRoot(root, rootKey)).toBe('created');
    const workspace = workspaceRecord({ parentWorkspaceId: root.id });
    const other = workspaceRecord({ parentWorkspaceId: root.id, plan: 'starter' });
    await store.createWorkspace(workspace);
    await store.createWorkspace(other);
    return { root, rootKey, workspace, other };
  }

  describe('root bootstrap', () => {
    test('an empty store has no root', async () => {
      expect(await store.rootWorkspace()).toBeUndefined();
    });

    test('creates the root and its key once, then answers exists and changes nothing', async () => {
      const root = workspaceRecord({ name: 'Root platform', plan: 'enterprise' });
      const key = apiKeyRecord(root.id, { name: 'root', scopes: null });
      expect(await store.bootstrapRoot(root, key)).toBe('created');
      expect(await store.rootWorkspace()).toEqual(root);
      expect(await store.getWorkspace(root.id)).toEqual(root);
      expect(await store.findApiKeyByHash(key.keyHash)).toEqual(key);

      const second = workspaceRecord({ name: 'Another root' });
      const secondKey = apiKeyRecord(second.id, { scopes: null });
      expect(await store.bootstrapRoot(second, secondKey)).toBe('exists');
      expect(await store.rootWorkspace()).toEqual(root);
      expect(await store.getWorkspace(second.id)).toBeUndefined();
      expect(await store.findApiKeyByHash(secondKey.keyHash)).toBeUndefined();
    });

    test('of concurrent bootstraps exactly one creates a root', async () => {
      const attempts = Array.from({ length: 6 }, () => {
        const root = workspaceRecord({ plan: 'enterprise' });
        return { root, key: apiKeyRecord(root.id, { scopes: null }) };
      });
      const outcomes = await Promise.all(attempts.map(({ root, key }) => store.bootstrapRoot(root, key)));
      expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'exists')).toHaveLength(5);
      const winner = attempts[outcomes.indexOf('created')]!;
      expect(await store.rootWorkspace()).toEqual(winner.root);
      for (const attempt of attempts) {
        const won = attempt === winner;
        expect(await store.getWorkspace(attempt.root.id)).toEqual(won ? attempt.root : undefined);
        expect(await store.findApiKeyByHash(attempt.key.keyHash)).toEqual(won ? attempt.key : undefined);
      }
    });

    test('a second workspace without a parent is refused', async () => {
      await seed();
      await expectRefused(store.createWorkspace(workspaceRecord({ parentWorkspaceId: null })));
    });
  });

  describe('workspaces', () => {
    test('a created workspace reads back whole; the root stays the root', async () => {
      const { root, workspace, other } = await seed();
      expect(await store.getWorkspace(workspace.id)).toEqual(workspace);
      expect(await store.getWorkspace(other.id)).toEqual(other);
      expect(await store.rootWorkspace()).toEqual(root);
      expect(await store.getWorkspace(newId())).toBeUndefined();
    });

    test('a suspended workspace keeps its status', async () => {
      const { root } = await seed();
      const suspended = workspaceRecord({ parentWorkspaceId: root.id, status: 'suspended' });
      await store.createWorkspace(suspended);
      expect(await store.getWorkspace(suspended.id)).toEqual(suspended);
    });
  });

  describe('API keys', () => {
    test('a created key is found by its hash, whole', async () => {
      const { workspace } = await seed();
      const key = apiKeyRecord(workspace.id);
      await store.createApiKey(key);
      expect(await store.findApiKeyByHash(key.keyHash)).toEqual(key);
      expect(await store.findApiKeyByHash(sha256Hex('svc_unknown'))).toBeUndefined();
    });

    test('null scopes round-trip as null, empty scopes as empty, and scope order is kept', async () => {
      const { rootKey, workspace } = await seed();
      expect((await store.findApiKeyByHash(rootKey.keyHash))?.scopes).toBeNull();
      const unrestricted = apiKeyRecord(workspace.id, { scopes: null });
      const none = apiKeyRecord(workspace.id, { scopes: [] });
      const ordered = apiKeyRecord(workspace.id, { scopes: ['settings:write', 'calls:read', 'billing:read'] });
      for (const key of [unrestricted, none, ordered]) await store.createApiKey(key);
      expect((await store.findApiKeyByHash(unrestricted.keyHash))?.scopes).toBeNull();
      expect((await store.findApiKeyByHash(none.keyHash))?.scopes).toEqual([]);
      expect((await store.findApiKeyByHash(ordered.keyHash))?.scopes).toEqual(['settings:write', 'calls:read', 'billing:read']);
      const listed = await store.listApiKeys(workspace.id, { limit: 50, offset: 0 });
      expect(listed.keys.find((k) => k.id === unrestricted.id)?.scopes).toBeNull();
    });

    test('a key hash is unique: a second key with the same hash is refused', async () => {
      const { workspace, other } = await seed();
      const key = apiKeyRecord(workspace.id);
      await store.createApiKey(key);
      await expectRefused(store.createApiKey(apiKeyRecord(other.id, { keyHash: key.keyHash })));
      expect(await store.findApiKeyByHash(key.keyHash)).toEqual(key);
      expect((await store.listApiKeys(other.id, { limit: 50, offset: 0 })).total).toBe(0);
    });

    test('list gives only the active keys of the workspace, newest first, with the total and paging', async () => {
      const { workspace, other } = await seed();
      const created: ApiKeyRecord[] = [];
      for (let i = 0; i < 5; i += 1) {
        const key = apiKeyRecord(workspace.id, { name: `key ${i}` });
        await store.createApiKey(key);
        created.push(key);
      }
      await store.createApiKey(apiKeyRecord(other.id));
      expect(await store.revokeApiKey(workspace.id, created[1]!.id)).toBe('revoked');
      const newestFirst = [created[4]!, created[3]!, created[2]!, created[0]!];

      const all = await store.listApiKeys(workspace.id, { limit: 50, offset: 0 });
      expect(all.total).toBe(4);
      expect(all.keys).toEqual(newestFirst);

      const page = await store.listApiKeys(workspace.id, { limit: 2, offset: 1 });
      expect(page.total).toBe(4);
      expect(page.keys.map((k) => k.id)).toEqual([created[3]!.id, created[2]!.id]);

      const beyond = await store.listApiKeys(workspace.id, { limit: 10, offset: 10 });
      expect(beyond).toEqual({ keys: [], total: 4 });

      const otherList = await store.listApiKeys(other.id, { limit: 50, offset: 0 });
      expect(otherList.total).toBe(1);
      expect(otherList.keys.every((k) => k.workspaceId === other.id)).toBe(true);

      expect(await store.listApiKeys(newId(), { limit: 50, offset: 0 })).toEqual({ keys: [], total: 0 });
    });

    test('keys created in the same instant are ordered by id, newest id first', async () => {
      const { workspace } = await seed();
      const at = tick();
      const keys = Array.from({ length: 3 }, () => apiKeyRecord(workspace.id, { createdAt: at }));
      for (const key of keys) await store.createApiKey(key);
      const listed = await store.listApiKeys(workspace.id, { limit: 50, offset: 0 });
      expect(listed.keys.map((k) => k.id)).toEqual(keys.map((k) => k.id).sort().reverse());
    });

    test('revoke works only in the key’s own workspace, and only once', async () => {
      const { workspace, other } = await seed();
      const key = apiKeyRecord(workspace.id);
      await store.createApiKey(key);
      expect(await store.revokeApiKey(other.id, key.id)).toBe('not_found');
      expect((await store.findApiKeyByHash(key.keyHash))?.status).toBe('active');
      expect(await store.revokeApiKey(workspace.id, key.id)).toBe('revoked');
      expect(await store.revokeApiKey(workspace.id, key.id)).toBe('not_found');
      expect(await store.revokeApiKey(workspace.id, newId())).toBe('not_found');
      // A revoked key is still found by its hash (so authentication can refuse it), marked revoked.
      expect(await store.findApiKeyByHash(key.keyHash)).toEqual({ ...key, status: 'revoked' });
      expect((await store.listApiKeys(workspace.id, { limit: 50, offset: 0 })).total).toBe(0);
    });

    test('the root’s last active unrestricted key is never revoked; restricted root keys and other workspaces’ keys are', async () => {
      const { root, rootKey, workspace } = await seed();
      expect(await store.revokeApiKey(root.id, rootKey.id)).toBe('last_unrestricted');
      const restricted = apiKeyRecord(root.id);
      await store.createApiKey(restricted);
      expect(await store.revokeApiKey(root.id, restricted.id)).toBe('revoked');
      expect(await store.revokeApiKey(root.id, rootKey.id)).toBe('last_unrestricted');
      const rotated = apiKeyRecord(root.id, { scopes: null });
      expect(await store.registerApiKey(rotated)).toBe('created');
      expect(await store.revokeApiKey(root.id, rootKey.id)).toBe('revoked');
      expect(await store.revokeApiKey(root.id, rotated.id)).toBe('last_unrestricted');
      expect((await store.findApiKeyByHash(rotated.keyHash))?.status).toBe('active');
      // Outside the root the rule does not apply (only the root holds unrestricted keys, but the store does not rely on it).
      const elsewhere = apiKeyRecord(workspace.id, { scopes: null });
      await store.createApiKey(elsewhere);
      expect(await store.revokeApiKey(workspace.id, elsewhere.id)).toBe('revoked');
    });

    test('concurrent revocations of the root’s two unrestricted keys leave exactly one', async () => {
      const { root, rootKey } = await seed();
      const second = apiKeyRecord(root.id, { scopes: null });
      await store.createApiKey(second);
      const outcomes = await Promise.all([store.revokeApiKey(root.id, rootKey.id), store.revokeApiKey(root.id, second.id)]);
      expect([...outcomes].sort()).toEqual(['last_unrestricted', 'revoked']);
      const statuses = await Promise.all([rootKey, second].map(async (k) => (await store.findApiKeyByHash(k.keyHash))?.status));
      expect(statuses.sort()).toEqual(['active', 'revoked']);
    });

    test('registering a key whose hash exists leaves the stored key alone', async () => {
      const { workspace, rootKey } = await seed();
      const key = apiKeyRecord(workspace.id);
      expect(await store.registerApiKey(key)).toBe('created');
      expect(await store.registerApiKey({ ...key, id: newId(), name: 'again' })).toBe('exists');
      expect(await store.registerApiKey(apiKeyRecord(workspace.id, { keyHash: rootKey.keyHash }))).toBe('exists');
      expect(await store.findApiKeyByHash(key.keyHash)).toEqual(key);
      expect((await store.listApiKeys(workspace.id, { limit: 50, offset: 0 })).total).toBe(1);
    });

    test('touch sets lastUsedAt and nothing else', async () => {
      const { workspace } = await seed();
      const key = apiKeyRecord(workspace.id);
      const bystander = apiKeyRecord(workspace.id);
      await store.createApiKey(key);
      await store.createApiKey(bystander);
      const first = tick();
      await store.touchApiKey(key.id, first);
      expect(await store.findApiKeyByHash(key.keyHash)).toEqual({ ...key, lastUsedAt: first });
      const second = tick();
      await store.touchApiKey(key.id, second);
      expect((await store.findApiKeyByHash(key.keyHash))?.lastUsedAt).toBe(second);
      expect(await store.findApiKeyByHash(bystander.keyHash)).toEqual(bystander);
      await expect(store.touchApiKey(newId(), tick())).resolves.toBeUndefined();
    });
  });

  /** A member of the workspace, created through addMember. */
  async function member(workspaceId: string, role: Role = 'member', overrides: Partial<UserRecord> = {}): Promise<MemberRecord> {
    const outcome = await store.addMember({ workspaceId, role, status: 'active', createdAt: tick() }, userRecord(overrides));
    if (outcome.kind !== 'added') throw new Error('member not added');
    return outcome.member;
  }

  /** A redeemed grant of the member with an access and a refresh token. */
  async function grantOf(binding: Binding): Promise<{ grant: GrantRecord; access: TokenRecord; refresh: TokenRecord }> {
    const code = codeRecord(binding);
    await store.createAuthorizationCode(code);
    const grant = grantRecord(binding);
    const access = tokenRecord(grant, 'access');
    const refresh = tokenRecord(grant, 'refresh');
    expect(await store.redeemAuthorizationCode(code.id, grant, [access, refresh])).toEqual({ kind: 'redeemed' });
    return { grant, access, refresh };
  }

  const statusOf = async (token: TokenRecord) => (await store.findToken(token.tokenHash))?.status;
  const state = (m: MemberRecord): MemberState => ({ role: m.role, status: m.status });

  describe('workspace status', () => {
    test('suspending revokes every key, grant, token and unused code of the workspace, and nothing elsewhere', async () => {
      const { workspace, other } = await seed();
      const key = apiKeyRecord(workspace.id);
      const revokedBefore = apiKeyRecord(workspace.id, { status: 'revoked' });
      const elsewhere = apiKeyRecord(other.id);
      for (const k of [key, revokedBefore, elsewhere]) await store.createApiKey(k);
      const alice = await member(workspace.id, 'owner');
      const tokens = await grantOf({ workspaceId: workspace.id, userId: alice.userId });
      const code = codeRecord({ workspaceId: workspace.id, userId: alice.userId });
      await store.createAuthorizationCode(code);
      const bob = await member(other.id, 'owner');
      const foreign = await grantOf({ workspaceId: other.id, userId: bob.userId });

      const outcome = await store.setWorkspaceStatus(workspace.id, 'suspended');
      expect(outcome?.workspace).toEqual({ ...workspace, status: 'suspended' });
      expect([...outcome!.revokedCredentialIds].sort()).toEqual([key.id, tokens.access.id, tokens.refresh.id].sort());
      expect((await store.findApiKeyByHash(key.keyHash))?.status).toBe('revoked');
      expect(await statusOf(tokens.access)).toBe('revoked');
      expect(await statusOf(tokens.refresh)).toBe('revoked');
      expect((await store.getGrant(tokens.grant.id))?.status).toBe('revoked');
      expect((await store.findAuthorizationCode(code.codeHash))?.status).toBe('revoked');
      expect((await store.findApiKeyByHash(elsewhere.keyHash))?.status).toBe('active');
      expect(await statusOf(foreign.access)).toBe('active');
      expect(await store.getWorkspace(workspace.id)).toEqual({ ...workspace, status: 'suspended' });
    });

    test('reactivating revives no credential; an unknown workspace is undefined', async () => {
      const { workspace } = await seed();
      const key = apiKeyRecord(workspace.id);
      await store.createApiKey(key);
      await store.setWorkspaceStatus(workspace.id, 'suspended');
      expect(await store.setWorkspaceStatus(workspace.id, 'active')).toEqual({ workspace, revokedCredentialIds: [] });
      expect((await store.findApiKeyByHash(key.keyHash))?.status).toBe('revoked');
      expect(await store.setWorkspaceStatus(newId(), 'suspended')).toBeUndefined();
    });
  });

  describe('users', () => {
    test('a created user reads back whole by id and by e-mail; a password may be absent', async () => {
      const user = userRecord();
      const passwordless = userRecord({ passwordHash: null });
      expect(await store.createUser(user)).toBe(true);
      expect(await store.createUser(passwordless)).toBe(true);
      expect(await store.getUser(user.id)).toEqual(user);
      expect(await store.findUserByEmail(testRealm, user.email)).toEqual(user);
      expect(await store.getUser(passwordless.id)).toEqual(passwordless);
      expect(await store.getUser(newId())).toBeUndefined();
      expect(await store.findUserByEmail(testRealm, 'nobody@example.com')).toBeUndefined();
    });

    test('an e-mail belongs to one user of a realm; another realm has a user of its own with it', async () => {
      const user = userRecord();
      await store.createUser(user);
      expect(await store.createUser(userRecord({ email: user.email }))).toBe(false);
      expect(await store.findUserByEmail(testRealm, user.email)).toEqual(user);
      const elsewhere = userRecord({ email: user.email, realmId: newId(), passwordHash: null });
      expect(await store.createUser(elsewhere)).toBe(true);
      expect(await store.findUserByEmail(elsewhere.realmId, user.email)).toEqual(elsewhere);
      expect(await store.findUserByEmail(testRealm, user.email)).toEqual(user);
      expect(await store.findUserByEmail(newId(), user.email)).toBeUndefined();
    });
  });

  describe('members', () => {
    test('addMember creates a new user, or adds the existing user with that e-mail', async () => {
      const { workspace, other } = await seed();
      const user = userRecord();
      const first = await store.addMember({ workspaceId: workspace.id, role: 'admin', status: 'active', createdAt: tick() }, user);
      expect(first).toEqual({
        kind: 'added',
        member: { workspaceId: workspace.id, userId: user.id, role: 'admin', status: 'active', createdAt: expect.any(String), email: user.email, name: user.name, realmId: user.realmId },
      });
      expect(await store.getUser(user.id)).toEqual(user);
      const candidate = userRecord({ email: user.email, name: 'Someone else' });
      const second = await store.addMember({ workspaceId: other.id, role: 'member', status: 'active', createdAt: tick() }, candidate);
      expect(second.kind === 'added' && second.member).toMatchObject({ userId: user.id, name: user.name, role: 'member' });
      expect(await store.getUser(candidate.id)).toBeUndefined();
    });

    test('addMember finds the existing user in the new user’s realm only: another realm’s e-mail makes a user of its own', async () => {
      const { workspace, other } = await seed();
      const original = await member(workspace.id, 'owner');
      const stranger = userRecord({ email: original.email, realmId: newId(), name: 'Someone else', passwordHash: null });
      const added = await store.addMember({ workspaceId: other.id, role: 'admin', status: 'active', createdAt: tick() }, stranger);
      expect(added.kind === 'added' && added.member).toMatchObject({ userId: stranger.id, name: 'Someone else', realmId: stranger.realmId });
      expect(await store.getUser(stranger.id)).toEqual(stranger);
      expect(await store.getUser(original.userId)).toMatchObject({ realmId: testRealm, email: original.email });
      expect(await store.getMember(other.id, original.userId)).toBeUndefined();
    });

    test('an invited member keeps its inviter’s name for it, is answered as it is when added again, and is no customer until it accepts', async () => {
      const { root, workspace } = await seed();
      const user = userRecord({ name: 'Ada Lovelace' });
      await store.createUser(user);
      const invitation = { workspaceId: workspace.id, role: 'owner' as const, status: 'invited' as const, createdAt: tick(), invitedName: 'Someone' };
      const first = await store.addMember(invitation, userRecord({ email: user.email }));
      expect(first).toEqual({ kind: 'added', member: { ...invitation, userId: user.id, email: user.email, name: 'Ada Lovelace', realmId: user.realmId } });
      expect(await store.addMember({ ...invitation, role: 'member', invitedName: 'Other' }, userRecord({ email: user.email }))).toEqual(first);
      expect(await store.getCustomer(root.id, user.id)).toBeUndefined();
      expect((await store.listCustomers(root.id, '', { limit: 50, offset: 0 })).total).toBe(0);
      expect((await store.changeMember(workspace.id, user.id, { role: 'owner', status: 'invited' }, { role: 'owner', status: 'active' }, false)).kind).toBe('changed');
      expect(await store.getMember(workspace.id, user.id)).toMatchObject({ status: 'active', invitedName: 'Someone' });
      expect((await store.getCustomer(root.id, user.id))?.workspaces).toEqual([{ workspace, role: 'owner' }]);
    });

    test('a user is a member of a workspace once', async () => {
      const { workspace } = await seed();
      const alice = await member(workspace.id, 'owner');
      const again = await store.addMember({ workspaceId: workspace.id, role: 'member', status: 'active', createdAt: tick() }, userRecord({ email: alice.email }));
      expect(again).toEqual({ kind: 'already_member' });
      expect(await store.getMember(workspace.id, alice.userId)).toEqual(alice);
    });

    test('list gives the workspace’s members newest first, with the total and paging', async () => {
      const { workspace, other } = await seed();
      const created: MemberRecord[] = [];
      for (let i = 0; i < 4; i += 1) created.push(await member(workspace.id, i === 0 ? 'owner' : 'member'));
      await member(other.id);
      const all = await store.listMembers(workspace.id, { limit: 50, offset: 0 });
      expect(all).toEqual({ members: [...created].reverse(), total: 4 });
      const page = await store.listMembers(workspace.id, { limit: 2, offset: 1 });
      expect(page).toEqual({ members: [created[2], created[1]], total: 4 });
      expect(await store.listMembers(newId(), { limit: 50, offset: 0 })).toEqual({ members: [], total: 0 });
      expect(await store.getMember(other.id, created[0]!.userId)).toBeUndefined();
    });

    test('membershipsOf lists active memberships in active workspaces only', async () => {
      const { root, workspace, other } = await seed();
      const third = workspaceRecord({ parentWorkspaceId: root.id });
      await store.createWorkspace(third);
      const alice = await member(workspace.id, 'owner');
      await store.addMember({ workspaceId: other.id, role: 'admin', status: 'active', createdAt: tick() }, userRecord({ email: alice.email }));
      await store.addMember({ workspaceId: third.id, role: 'member', status: 'active', createdAt: tick() }, userRecord({ email: alice.email }));
      await member(third.id, 'owner');
      expect((await store.changeMember(third.id, alice.userId, { role: 'member', status: 'active' }, { role: 'member', status: 'suspended' }, true)).kind).toBe('changed');
      await store.setWorkspaceStatus(other.id, 'suspended');
      expect(await store.membershipsOf(alice.userId)).toEqual([{ workspace, role: 'owner' }]);
      expect(await store.membershipsOf(newId())).toEqual([]);
    });

    test('changeMember sets role and status when the member is as expected', async () => {
      const { workspace } = await seed();
      await member(workspace.id, 'owner');
      const bob = await member(workspace.id, 'member');
      const outcome = await store.changeMember(workspace.id, bob.userId, state(bob), { role: 'admin', status: 'suspended' }, false);
      expect(outcome).toEqual({ kind: 'changed', member: { ...bob, role: 'admin', status: 'suspended' }, revokedCredentialIds: [] });
      expect(await store.getMember(workspace.id, bob.userId)).toEqual({ ...bob, role: 'admin', status: 'suspended' });
    });

    test('changeMember and removeMember are stale when the member moved, and not_found for strangers', async () => {
      const { workspace } = await seed();
      await member(workspace.id, 'owner');
      const bob = await member(workspace.id, 'admin');
      expect(await store.changeMember(workspace.id, bob.userId, { role: 'member', status: 'active' }, { role: 'member', status: 'suspended' }, true)).toEqual({ kind: 'stale' });
      expect(await store.removeMember(workspace.id, bob.userId, { role: 'admin', status: 'suspended' })).toEqual({ kind: 'stale' });
      expect(await store.changeMember(workspace.id, newId(), state(bob), state(bob), false)).toEqual({ kind: 'not_found' });
      expect(await store.removeMember(workspace.id, newId(), state(bob))).toEqual({ kind: 'not_found' });
      expect(await store.getMember(workspace.id, bob.userId)).toEqual(bob);
    });

    test('the last active owner can be neither demoted, suspended nor removed', async () => {
      const { workspace } = await seed();
      const alice = await member(workspace.id, 'owner');
      const bob = await member(workspace.id, 'owner');
      await store.changeMember(workspace.id, bob.userId, state(bob), { role: 'owner', status: 'suspended' }, true);
      // A suspended owner is no owner to fall back on.
      expect(await store.changeMember(workspace.id, alice.userId, state(alice), { role: 'admin', status: 'active' }, true)).toEqual({ kind: 'last_owner' });
      expect(await store.changeMember(workspace.id, alice.userId, state(alice), { role: 'owner', status: 'suspended' }, true)).toEqual({ kind: 'last_owner' });
      expect(await store.removeMember(workspace.id, alice.userId, state(alice))).toEqual({ kind: 'last_owner' });
      expect(await store.getMember(workspace.id, alice.userId)).toEqual(alice);
      // An owner who stays an active owner may change nothing else about it, which is fine.
      expect((await store.changeMember(workspace.id, alice.userId, state(alice), state(alice), false)).kind).toBe('changed');
      // With a second active owner the first may go.
      await store.changeMember(workspace.id, bob.userId, { role: 'owner', status: 'suspended' }, { role: 'owner', status: 'active' }, false);
      expect(await store.removeMember(workspace.id, alice.userId, state(alice))).toEqual({ kind: 'changed', member: undefined, revokedCredentialIds: [] });
      expect(await store.getMember(workspace.id, alice.userId)).toBeUndefined();
    });

    test('of two owners demoting each other at once, exactly one succeeds', async () => {
      const { workspace } = await seed();
      const alice = await member(workspace.id, 'owner');
      const bob = await member(workspace.id, 'owner');
      const outcomes = await Promise.all([
        store.changeMember(workspace.id, alice.userId, state(alice), { role: 'admin', status: 'active' }, true),
        store.changeMember(workspace.id, bob.userId, state(bob), { role: 'admin', status: 'active' }, true),
      ]);
      expect(outcomes.map((o) => o.kind).sort()).toEqual(['changed', 'last_owner']);
      const owners = (await store.listMembers(workspace.id, { limit: 50, offset: 0 })).members.filter((m) => m.role === 'owner');
      expect(owners).toHaveLength(1);
    });

    test('a revoking change ends the member’s grants, tokens and unused codes of that workspace only, in the same transaction', async () => {
      const { workspace, other } = await seed();
      await member(workspace.id, 'owner');
      const bob = await member(workspace.id, 'admin');
      await store.addMember({ workspaceId: other.id, role: 'owner', status: 'active', createdAt: tick() }, userRecord({ email: bob.email }));
      const here = await grantOf({ workspaceId: workspace.id, userId: bob.userId });
      const rotated = tokenRecord(here.grant, 'refresh');
      expect(await store.rotateRefreshToken(here.refresh.id, [rotated])).toEqual({ kind: 'rotated' });
      const code = codeRecord({ workspaceId: workspace.id, userId: bob.userId });
      await store.createAuthorizationCode(code);
      const there = await grantOf({ workspaceId: other.id, userId: bob.userId });

      const outcome = await store.changeMember(workspace.id, bob.userId, state(bob), { role: 'member', status: 'active' }, true);
      expect(outcome.kind).toBe('changed');
      expect(outcome.kind === 'changed' && [...outcome.revokedCredentialIds].sort()).toEqual([here.access.id, rotated.id].sort());
      for (const token of [here.access, here.refresh, rotated]) expect(await statusOf(token)).toBe('revoked');
      expect((await store.getGrant(here.grant.id))?.status).toBe('revoked');
      expect((await store.findAuthorizationCode(code.codeHash))?.status).toBe('revoked');
      expect(await statusOf(there.access)).toBe('active');
      expect((await store.getGrant(there.grant.id))?.status).toBe('active');
    });

    test('removal revokes as well; a change without revoke keeps the credentials', async () => {
      const { workspace } = await seed();
      await member(workspace.id, 'owner');
      const bob = await member(workspace.id, 'member');
      const tokens = await grantOf({ workspaceId: workspace.id, userId: bob.userId });
      expect((await store.changeMember(workspace.id, bob.userId, state(bob), { role: 'admin', status: 'active' }, false)).kind).toBe('changed');
      expect(await statusOf(tokens.access)).toBe('active');
      const removed = await store.removeMember(workspace.id, bob.userId, { role: 'admin', status: 'active' });
      expect(removed.kind === 'changed' && [...removed.revokedCredentialIds].sort()).toEqual([tokens.access.id, tokens.refresh.id].sort());
      expect(await statusOf(tokens.access)).toBe('revoked');
      expect(await store.getMember(workspace.id, bob.userId)).toBeUndefined();
      expect(await store.getUser(bob.userId)).toMatchObject({ email: bob.email });
    });

    test('activeAccessTokenIds lists the member’s active access tokens of that workspace', async () => {
      const { workspace, other } = await seed();
      const alice = await member(workspace.id, 'owner');
      await store.addMember({ workspaceId: other.id, role: 'owner', status: 'active', createdAt: tick() }, userRecord({ email: alice.email }));
      const first = await grantOf({ workspaceId: workspace.id, userId: alice.userId });
      const second = await grantOf({ workspaceId: workspace.id, userId: alice.userId });
      await grantOf({ workspaceId: other.id, userId: alice.userId });
      await store.revokeToken(second.access.id);
      expect(await store.activeAccessTokenIds(workspace.id, alice.userId)).toEqual([first.access.id]);
      expect(await store.activeAccessTokenIds(workspace.id, newId())).toEqual([]);
    });

    test('a refused change revokes nothing', async () => {
      const { workspace } = await seed();
      const alice = await member(workspace.id, 'owner');
      const bob = await member(workspace.id, 'member');
      const owners = await grantOf({ workspaceId: workspace.id, userId: alice.userId });
      const members = await grantOf({ workspaceId: workspace.id, userId: bob.userId });
      expect((await store.changeMember(workspace.id, alice.userId, state(alice), { role: 'member', status: 'active' }, true)).kind).toBe('last_owner');
      expect((await store.removeMember(workspace.id, alice.userId, state(alice))).kind).toBe('last_owner');
      expect((await store.changeMember(workspace.id, bob.userId, { role: 'admin', status: 'active' }, { role: 'member', status: 'active' }, true)).kind).toBe('stale');
      for (const token of [owners.access, owners.refresh, members.access, members.refresh]) expect(await statusOf(token)).toBe('active');
    });
  });

  /** The owner membership of a registration: active, created with the workspace. */
  const ownerOf = (workspace: WorkspaceRecord, user: UserRecord): MembershipRecord => ({
    workspaceId: workspace.id,
    userId: user.id,
    role: 'owner',
    status: 'active',
    createdAt: workspace.createdAt,
  });

  /** A customer registered under the platform, with the workspace registration created. */
  async function customer(platformId: string, user: Partial<UserRecord> = {}, workspace: Partial<WorkspaceRecord> = {}) {
    const record = userRecord(user);
    const owned = workspaceRecord({ parentWorkspaceId: platformId, ...workspace });
    expect(await store.registerCustomer(record, owned, ownerOf(owned, record))).toEqual({ kind: 'registered' });
    return { user: record, workspace: owned };
  }

  /** Another workspace under `parentId` in which the user with `email` gets `role`. */
  async function alsoMember(parentId: string, email: string, role: Role, fields: { workspace?: Partial<WorkspaceRecord>; status?: MemberState['status'] } = {}) {
    const workspace = workspaceRecord({ parentWorkspaceId: parentId, ...fields.workspace });
    await store.createWorkspace(workspace);
    await store.addMember({ workspaceId: workspace.id, role, status: fields.status ?? 'active', createdAt: tick() }, userRecord({ email }));
    return workspace;
  }

  const everyone = { limit: 50, offset: 0 };
  const idsOf = (listing: { customers: { user: UserRecord }[] }) => listing.customers.map((c) => c.user.id);

  describe('customers', () => {
    test('registerCustomer creates the user, its workspace under the platform and the owner membership', async () => {
      const { workspace: platform } = await seed();
      const user = userRecord({ passwordHash: null });
      const workspace = workspaceRecord({ parentWorkspaceId: platform.id, plan: 'starter' });
      expect(await store.registerCustomer(user, workspace, ownerOf(workspace, user))).toEqual({ kind: 'registered' });
      expect(await store.getUser(user.id)).toEqual(user);
      expect(await store.getWorkspace(workspace.id)).toEqual(workspace);
      expect(await store.getMember(workspace.id, user.id)).toEqual({ ...ownerOf(workspace, user), email: user.email, name: user.name, realmId: user.realmId });
      expect(await store.getCustomer(platform.id, user.id)).toEqual({ user, workspaces: [{ workspace, role: 'owner' }] });
    });

    test('an e-mail a user of the realm has gets the workspace with that user as its invited owner, and no new user', async () => {
      const { workspace: platform, other } = await seed();
      const existing = await member(other.id, 'member', { name: 'Ada Lovelace' });
      const user = userRecord({ email: existing.email, name: 'As the platform named her' });
      const workspace = workspaceRecord({ parentWorkspaceId: platform.id });
      expect(await store.registerCustomer(user, workspace, ownerOf(workspace, user))).toEqual({ kind: 'invited', userId: existing.userId });
      expect(await store.getUser(user.id)).toBeUndefined();
      expect(await store.getWorkspace(workspace.id)).toEqual(workspace);
      expect(await store.getMember(workspace.id, existing.userId)).toMatchObject({ role: 'owner', status: 'invited', invitedName: 'As the platform named her' });
      expect(await store.listCustomers(platform.id, '', everyone)).toEqual({ customers: [], total: 0 });
    });

    test('an e-mail taken in another realm is free in this one', async () => {
      const { workspace: platform, other } = await seed();
      const elsewhere = await member(other.id, 'member', { realmId: newId() });
      const user = userRecord({ email: elsewhere.email, realmId: platform.id });
      const workspace = workspaceRecord({ parentWorkspaceId: platform.id });
      expect(await store.registerCustomer(user, workspace, ownerOf(workspace, user))).toEqual({ kind: 'registered' });
      expect(await store.findUserByEmail(platform.id, user.email)).toEqual(user);
      expect(await store.findUserByEmail(elsewhere.realmId, user.email)).toMatchObject({ id: elsewhere.userId });
    });

    test('of concurrent registrations of one e-mail exactly one registers; the others invite its user', async () => {
      const { workspace: platform } = await seed();
      const email = 'race@example.com';
      const attempts = Array.from({ length: 10 }, () => {
        const user = userRecord({ email });
        const workspace = workspaceRecord({ parentWorkspaceId: platform.id });
        return { user, workspace };
      });
      const outcomes = await Promise.all(attempts.map(({ user, workspace }) => store.registerCustomer(user, workspace, ownerOf(workspace, user))));
      const winnerIndex = outcomes.findIndex((o) => o.kind === 'registered');
      const winner = attempts[winnerIndex]!;
      expect(outcomes.filter((o) => o.kind === 'registered')).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === 'invited' && o.userId === winner.user.id)).toHaveLength(9);
      expect(await store.findUserByEmail(testRealm, email)).toEqual(winner.user);
      for (const attempt of attempts) {
        expect(await store.getWorkspace(attempt.workspace.id)).toEqual(attempt.workspace);
        expect((await store.getMember(attempt.workspace.id, winner.user.id))?.status).toBe(attempt === winner ? 'active' : 'invited');
      }
      expect(await store.listCustomers(platform.id, '', everyone)).toEqual({ customers: [{ user: winner.user, workspaces: [{ workspace: winner.workspace, role: 'owner' }] }], total: 1 });
    });

    test('customers are the owners of workspaces under the platform, each with those workspaces oldest first', async () => {
      const { workspace: platform, other } = await seed();
      const alice = await customer(platform.id);
      const later = await alsoMember(platform.id, alice.user.email, 'owner', { workspace: { status: 'suspended' } });
      await alsoMember(other.id, alice.user.email, 'owner');
      const bob = await member(alice.workspace.id, 'admin');
      const carol = await customer(other.id);
      // An owner of a workspace under one of the platform's customers is not the platform's customer.
      const nested = await customer(alice.workspace.id);
      const suspendedOwner = await member(alice.workspace.id, 'owner');
      await store.changeMember(alice.workspace.id, suspendedOwner.userId, state(suspendedOwner), { role: 'owner', status: 'suspended' }, true);
      const suspendedUser = (await store.getUser(suspendedOwner.userId))!;

      expect(await store.getCustomer(platform.id, alice.user.id)).toEqual({
        user: alice.user,
        workspaces: [
          { workspace: alice.workspace, role: 'owner' },
          { workspace: later, role: 'owner' },
        ],
      });
      expect(await store.getCustomer(platform.id, suspendedOwner.userId)).toEqual({
        user: suspendedUser,
        workspaces: [{ workspace: alice.workspace, role: 'owner' }],
      });
      for (const outsider of [bob.userId, carol.user.id, nested.user.id, newId()]) {
        expect(await store.getCustomer(platform.id, outsider)).toBeUndefined();
      }
      expect((await store.getCustomer(other.id, carol.user.id))?.workspaces).toEqual([{ workspace: carol.workspace, role: 'owner' }]);
      expect(await store.getCustomer(newId(), alice.user.id)).toBeUndefined();
      const listed = await store.listCustomers(platform.id, '', everyone);
      expect(listed.total).toBe(2);
      // Both joined with alice's first workspace: the tie goes to the newer id.
      expect(idsOf(listed)).toEqual([suspendedOwner.userId, alice.user.id].sort().reverse());
    });

    test('list is newest first by each customer’s oldest workspace there, then by user id, and pages with the distinct total', async () => {
      const { workspace: platform } = await seed();
      const first = await customer(platform.id);
      const second = await customer(platform.id);
      const third = await customer(platform.id);
      // A newer workspace does not make a customer newer, nor count it twice.
      await alsoMember(platform.id, first.user.email, 'owner');
      const at = tick();
      const tied = [await customer(platform.id, {}, { createdAt: at }), await customer(platform.id, {}, { createdAt: at })];
      const tiedNewestIdFirst = tied.map((c) => c.user.id).sort().reverse();
      const order = [...tiedNewestIdFirst, third.user.id, second.user.id, first.user.id];

      const all = await store.listCustomers(platform.id, '', everyone);
      expect(all.total).toBe(5);
      expect(idsOf(all)).toEqual(order);
      expect(all.customers[4]!.workspaces).toHaveLength(2);
      const page = await store.listCustomers(platform.id, '', { limit: 2, offset: 2 });
      expect(page.total).toBe(5);
      expect(idsOf(page)).toEqual(order.slice(2, 4));
      expect(await store.listCustomers(platform.id, '', { limit: 10, offset: 10 })).toEqual({ customers: [], total: 5 });
      expect(await store.listCustomers(newId(), '', everyone)).toEqual({ customers: [], total: 0 });
    });

    test('the query matches e-mail or name as a case-insensitive, literal substring', async () => {
      const { workspace: platform } = await seed();
      const ada = await customer(platform.id, { email: 'ada.lovelace@example.com', name: 'Ada Lovelace' });
      const grace = await customer(platform.id, { email: 'grace@navy.example', name: 'Grace Hopper' });
      const percent = await customer(platform.id, { email: '100%_sure@example.com', name: 'Sure' });
      const snake = await customer(platform.id, { email: 'snake@example.com', name: 'snake_case' });
      const slash = await customer(platform.id, { email: 'slash@example.com', name: 'Back\\slash' });
      const umlaut = await customer(platform.id, { email: 'oel@example.com', name: 'Ärger Öl' });
      const matches = async (query: string) => {
        const listed = await store.listCustomers(platform.id, query, everyone);
        expect(listed.total).toBe(listed.customers.length);
        return [...idsOf(listed)].sort();
      };
      const sorted = (...customers: { user: UserRecord }[]) => customers.map((c) => c.user.id).sort();

      expect(await matches('LOVELACE')).toEqual(sorted(ada));
      expect(await matches('hopper')).toEqual(sorted(grace));
      expect(await matches('NAVY.EX')).toEqual(sorted(grace));
      expect(await matches('%')).toEqual(sorted(percent));
      expect(await matches('_')).toEqual(sorted(percent, snake));
      expect(await matches('0%_s')).toEqual(sorted(percent));
      expect(await matches('\\')).toEqual(sorted(slash));
      expect(await matches('äRGER')).toEqual(sorted(umlaut));
      // Wildcards of LIKE and regular expressions are plain characters.
      expect(await matches('K\\S')).toEqual(sorted(slash));
      for (const query of ['a%e', 'a_a', 'ad.', '.*', 'e+', '[a]', '(ada)', '^ada', '\\d']) expect([query, await matches(query)]).toEqual([query, []]);
      expect(await matches('')).toHaveLength(6);
    });
  });

  describe('initial passwords', () => {
    test('setInitialPassword sets a password only where there is none', async () => {
      const invited = userRecord({ passwordHash: null });
      const withPassword = userRecord();
      await store.createUser(invited);
      await store.createUser(withPassword);
      expect(await store.setInitialPassword(invited.id, 'scrypt$first')).toBe(true);
      expect(await store.getUser(invited.id)).toEqual({ ...invited, passwordHash: 'scrypt$first' });
      expect(await store.setInitialPassword(invited.id, 'scrypt$second')).toBe(false);
      expect(await store.setInitialPassword(withPassword.id, 'scrypt$second')).toBe(false);
      expect(await store.setInitialPassword(newId(), 'scrypt$second')).toBe(false);
      expect((await store.getUser(invited.id))?.passwordHash).toBe('scrypt$first');
      expect(await store.getUser(withPassword.id)).toEqual(withPassword);
    });

    test('of concurrent initial passwords exactly one is set', async () => {
      const invited = userRecord({ passwordHash: null });
      await store.createUser(invited);
      const hashes = Array.from({ length: 5 }, (_, i) => `scrypt$${i}`);
      const outcomes = await Promise.all(hashes.map((hash) => store.setInitialPassword(invited.id, hash)));
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect((await store.getUser(invited.id))?.passwordHash).toBe(hashes[outcomes.indexOf(true)]);
    });

    test('replacePasswordHash replaces only the hash it expects', async () => {
      const user = userRecord();
      const invited = userRecord({ passwordHash: null });
      await store.createUser(user);
      await store.createUser(invited);
      expect(await store.replacePasswordHash(user.id, 'scrypt$not-the-stored-one', 'scrypt$new')).toBe(false);
      expect(await store.replacePasswordHash(invited.id, '', 'scrypt$new')).toBe(false);
      expect(await store.replacePasswordHash(newId(), user.passwordHash!, 'scrypt$new')).toBe(false);
      expect(await store.getUser(user.id)).toEqual(user);
      expect(await store.replacePasswordHash(user.id, user.passwordHash!, 'scrypt$new')).toBe(true);
      expect(await store.replacePasswordHash(user.id, user.passwordHash!, 'scrypt$newer')).toBe(false);
      expect(await store.getUser(user.id)).toEqual({ ...user, passwordHash: 'scrypt$new' });
      expect((await store.getUser(invited.id))?.passwordHash).toBeNull();
    });
  });

  describe('OAuth clients', () => {
    test('ensureClient creates a client once and leaves it as it is afterwards', async () => {
      const client = clientRecord({ redirectUris: [], grantTypes: ['refresh_token'], tokenEndpointAuthMethod: 'none', secretHash: null, clientUri: null });
      expect(await store.ensureClient(client)).toBe('created');
      expect(await store.getClient(client.id)).toEqual(client);
      expect(await store.ensureClient({ ...client, name: 'Renamed', scopes: ['calls:read'], createdAt: tick() })).toBe('exists');
      expect(await store.getClient(client.id)).toEqual(client);
    });

    test('of concurrent ensureClient calls for one id exactly one creates it', async () => {
      const id = newId();
      const attempts = Array.from({ length: 5 }, (_, i) => clientRecord({ id, name: `attempt ${i}` }));
      const outcomes = await Promise.all(attempts.map((client) => store.ensureClient(client)));
      expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
      expect(await store.getClient(id)).toEqual(attempts[outcomes.indexOf('created')]);
    });

    test('a registered client reads back whole; a public client has no secret', async () => {
      const confidential = clientRecord();
      const publicClient = clientRecord({ tokenEndpointAuthMethod: 'none', secretHash: null, clientUri: null, scopes: [] });
      await store.createClient(confidential);
      await store.createClient(publicClient);
      expect(await store.getClient(confidential.id)).toEqual(confidential);
      expect(await store.getClient(publicClient.id)).toEqual(publicClient);
      expect(await store.getClient(newId())).toBeUndefined();
    });
  });

  describe('authorization codes', () => {
    test('a code is found by its hash, whole, and is redeemed once for a grant with its tokens', async () => {
      const { workspace } = await seed();
      const alice = await member(workspace.id, 'owner');
      const code = codeRecord({ workspaceId: workspace.id, userId: alice.userId });
      await store.createAuthorizationCode(code);
      expect(await store.findAuthorizationCode(code.codeHash)).toEqual(code);
      expect(await store.findAuthorizationCode(sha256Hex('svc_ac_unknown'))).toBeUndefined();
      const grant = grantRecord({ workspaceId: workspace.id, userId: alice.userId, clientId: code.clientId }, { resource: code.resource });
      const access = tokenRecord(grant, 'access');
      const refresh = tokenRecord(grant, 'refresh');
      expect(await store.redeemAuthorizationCode(code.id, grant, [access, refresh])).toEqual({ kind: 'redeemed' });
      expect(await store.findAuthorizationCode(code.codeHash)).toEqual({ ...code, status: 'used', grantId: grant.id });
      expect(await store.getGrant(grant.id)).toEqual(grant);
      expect(await store.findToken(access.tokenHash)).toEqual(access);
      expect(await store.findToken(refresh.tokenHash)).toEqual(refresh);
    });

    test('a second redemption revokes the grant issued from the first and stores nothing', async () => {
      const { workspace } = await seed();
      const alice = await member(workspace.id, 'owner');
      const binding = { workspaceId: workspace.id, userId: alice.userId };
      const code = codeRecord(binding);
      await store.createAuthorizationCode(code);
      const grant = grantRecord(binding);
      const access = tokenRecord(grant, 'access');
      const refresh = tokenRecord(grant, 'refresh');
      await store.redeemAuthorizationCode(code.id, grant, [access, refresh]);
      const second = grantRecord(binding);
      const secondAccess = tokenRecord(second, 'access');
      const outcome = await store.redeemAuthorizationCode(code.id, second, [secondAccess]);
      expect(outcome.kind).toBe('reused');
      expect(outcome.kind === 'reused' && [...outcome.revokedCredentialIds].sort()).toEqual([access.id, refresh.id].sort());
      expect((await store.getGrant(grant.id))?.status).toBe('revoked');
      expect(await statusOf(access)).toBe('revoked');
      expect(await store.getGrant(second.id)).toBeUndefined();
      expect(await store.findToken(secondAccess.tokenHash)).toBeUndefined();
    });

    test('a revoked or unknown code is unavailable', async () => {
      const { workspace } = await seed();
      const alice = await member(workspace.id, 'owner');
      const binding = { workspaceId: workspace.id, userId: alice.userId };
      const revoked = codeRecord(binding, { status: 'revoked' });
      await store.createAuthorizationCode(revoked);
      expect(await store.redeemAuthorizationCode(revoked.id, grantRecord(binding), [])).toEqual({ kind: 'unavailable' });
      expect(await store.redeemAuthorizationCode(newId(), grantRecord(binding), [])).toEqual({ kind: 'unavailable' });
    });

    test('of concurrent redemptions of one code exactly one redeems', async () => {
      const { workspace } = await seed();
      const alice = await member(workspace.id, 'owner');
      const binding = { workspaceId: workspace.id, userId: alice.userId };
      const code = codeRecord(binding);
      await store.createAuthorizationCode(code);
      const attempts = Array.from({ length: 5 }, () => {
        const grant = grantRecord(binding);
        return { grant, access: tokenRecord(grant, 'access') };
      });
      const outcomes = await Promise.all(attempts.map(({ grant, access }) => store.redeemAuthorizationCode(code.id, grant, [access])));
      expect(outcomes.filter((o) => o.kind === 'redeemed')).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === 'reused')).toHaveLength(4);
      const stored = await Promise.all(attempts.map(({ grant }) => store.getGrant(grant.id)));
      expect(stored.filter((g) => g !== undefined)).toHaveLength(1);
      // The winner's grant fell to the reuse that followed it.
      expect(stored.find((g) => g !== undefined)?.status).toBe('revoked');
    });
  });

  describe('tokens', () => {
    test('rotation marks the refresh token used and stores the new pair in the same grant', async () => {
      const { workspace } = await seed();
      const alice = await member(workspace.id, 'owner');
      const { grant, access, refresh } = await grantOf({ workspaceId: workspace.id, userId: alice.userId });
      const next = [tokenRecord(grant, 'access', { scopes: ['calls:read'] }), tokenRecord(grant, 'refresh')];
      expect(await store.rotateRefreshToken(refresh.id, next)).toEqual({ kind: 'rotated' });
      expect(await statusOf(refresh)).toBe('used');
      expect(await store.findToken(next[0]!.tokenHash)).toEqual(next[0]);
      expect(await store.findToken(next[1]!.tokenHash)).toEqual(next[1]);
      expect(await statusOf(access)).toBe('active');
    });

    test('rotating a used refresh token again revokes the whole grant', async () => {
      const { workspace } = await seed();
      const alice = await member(workspace.id, 'owner');
      const { grant, access, refresh } = await grantOf({ workspaceId: workspace.id, userId: alice.userId });
      const next = [tokenRecord(grant, 'access'), tokenRecord(grant, 'refresh')];
      await store.rotateRefreshToken(refresh.id, next);
      const replay = await store.rotateRefreshToken(refresh.id, [tokenRecord(grant, 'access')]);
      expect(replay.kind).toBe('reused');
      expect(replay.kind === 'reused' && [...replay.revokedCredentialIds].sort()).toEqual([access.id, next[0]!.id, next[1]!.id].sort());
      for (const token of [access, refresh, ...next]) expect(await statusOf(token)).toBe('revoked');
      expect((await store.getGrant(grant.id))?.status).toBe('revoked');
    });

    test('an access token, a revoked or an unknown token does not rotate', async () => {
      const { workspace } = await seed();
      const alice = await member(workspace.id, 'owner');
      const { grant, access, refresh } = await grantOf({ workspaceId: workspace.id, userId: alice.userId });
      expect(await store.rotateRefreshToken(access.id, [])).toEqual({ kind: 'unavailable' });
      expect(await store.rotateRefreshToken(newId(), [])).toEqual({ kind: 'unavailable' });
      await store.revokeGrant(grant.id);
      expect(await store.rotateRefreshToken(refresh.id, [tokenRecord(grant, 'access')])).toEqual({ kind: 'unavailable' });
    });

    test('of concurrent rotations of one refresh token exactly one rotates', async () => {
      const { workspace } = await seed();
      const alice = await member(workspace.id, 'owner');
      const { grant, refresh } = await grantOf({ workspaceId: workspace.id, userId: alice.userId });
      const pairs = Array.from({ length: 5 }, () => [tokenRecord(grant, 'access'), tokenRecord(grant, 'refresh')]);
      const outcomes = await Promise.all(pairs.map((pair) => store.rotateRefreshToken(refresh.id, pair)));
      expect(outcomes.filter((o) => o.kind === 'rotated')).toHaveLength(1);
      // The first loser replays a used token and revokes the grant; after that the token is simply revoked.
      expect(outcomes.filter((o) => o.kind === 'reused').length).toBeGreaterThanOrEqual(1);
      expect(outcomes.filter((o) => o.kind === 'rotated' || o.kind === 'reused' || o.kind === 'unavailable')).toHaveLength(5);
      expect((await store.getGrant(grant.id))?.status).toBe('revoked');
      const stored = await Promise.all(pairs.flat().map((t) => store.findToken(t.tokenHash)));
      expect(stored.filter((t) => t !== undefined)).toHaveLength(2);
    });

    test('issueGrant stores a grant without a code, with its tokens, which then rotate like any', async () => {
      const { workspace } = await seed();
      const alice = await member(workspace.id, 'owner');
      const grant = grantRecord({ workspaceId: workspace.id, userId: alice.userId });
      const access = tokenRecord(grant, 'access');
      const refresh = tokenRecord(grant, 'refresh');
      await store.issueGrant(grant, [access, refresh]);
      expect(await store.getGrant(grant.id)).toEqual(grant);
      expect(await store.findToken(access.tokenHash)).toEqual(access);
      expect(await store.findToken(refresh.tokenHash)).toEqual(refresh);
      expect(await store.rotateRefreshToken(refresh.id, [tokenRecord(grant, 'access'), tokenRecord(grant, 'refresh')])).toEqual({ kind: 'rotated' });
    });

    test('issueGrant writes nothing when a token cannot be stored', async () => {
      const { workspace } = await seed();
      const alice = await member(workspace.id, 'owner');
      const { access } = await grantOf({ workspaceId: workspace.id, userId: alice.userId });
      const grant = grantRecord({ workspaceId: workspace.id, userId: alice.userId });
      await expectRefused(store.issueGrant(grant, [tokenRecord(grant, 'access', { tokenHash: access.tokenHash })]));
      expect(await store.getGrant(grant.id)).toBeUndefined();
    });

    test('revokeUserCredentials ends the user’s grants, tokens and unused codes of one workspace', async () => {
      const { workspace, other } = await seed();
      const alice = await member(workspace.id, 'owner');
      await store.addMember({ workspaceId: other.id, role: 'owner', status: 'active', createdAt: tick() }, userRecord({ email: alice.email }));
      const bob = await member(workspace.id, 'member');
      const first = await grantOf({ workspaceId: workspace.id, userId: alice.userId });
      const rotated = [tokenRecord(first.grant, 'access'), tokenRecord(first.grant, 'refresh')];
      await store.rotateRefreshToken(first.refresh.id, rotated);
      const second = await grantOf({ workspaceId: workspace.id, userId: alice.userId });
      const code = codeRecord({ workspaceId: workspace.id, userId: alice.userId });
      await store.createAuthorizationCode(code);
      const elsewhere = await grantOf({ workspaceId: other.id, userId: alice.userId });
      const bobs = await grantOf({ workspaceId: workspace.id, userId: bob.userId });

      const revoked = await store.revokeUserCredentials(workspace.id, alice.userId);
      expect([...revoked].sort()).toEqual([first.access.id, ...rotated.map((t) => t.id), second.access.id, second.refresh.id].sort());
      for (const token of [first.access, first.refresh, ...rotated, second.access, second.refresh]) expect(await statusOf(token)).toBe('revoked');
      for (const grant of [first.grant, second.grant]) expect((await store.getGrant(grant.id))?.status).toBe('revoked');
      expect((await store.findAuthorizationCode(code.codeHash))?.status).toBe('revoked');
      for (const token of [elsewhere.access, elsewhere.refresh, bobs.access, bobs.refresh]) expect(await statusOf(token)).toBe('active');
      expect((await store.getGrant(elsewhere.grant.id))?.status).toBe('active');
      expect(await store.revokeUserCredentials(workspace.id, alice.userId)).toEqual([]);
      expect(await store.revokeUserCredentials(workspace.id, newId())).toEqual([]);
    });

    test('revokeToken ends one token once; revokeGrant ends every token of the grant', async () => {
      const { workspace } = await seed();
      const alice = await member(workspace.id, 'owner');
      const first = await grantOf({ workspaceId: workspace.id, userId: alice.userId });
      const second = await grantOf({ workspaceId: workspace.id, userId: alice.userId });
      expect(await store.revokeToken(first.access.id)).toEqual([first.access.id]);
      expect(await store.revokeToken(first.access.id)).toEqual([]);
      expect(await store.revokeToken(newId())).toEqual([]);
      expect(await statusOf(first.refresh)).toBe('active');
      expect(await store.revokeGrant(first.grant.id)).toEqual([first.refresh.id]);
      expect(await store.revokeGrant(first.grant.id)).toEqual([]);
      expect((await store.getGrant(first.grant.id))?.status).toBe('revoked');
      expect(await statusOf(second.access)).toBe('active');
    });
  });

  describe('pruning OAuth records', () => {
    const cutOff = '2026-02-01T00:00:00.000Z';
    const [january, second, december] = ['2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z', '2025-12-01T00:00:00.000Z'];

    test('codes and tokens go once expired before the cut-off, the oldest first and at most the batch; whatever is still valid stays', async () => {
      const { workspace } = await seed();
      const alice = await member(workspace.id, 'owner');
      const binding = { workspaceId: workspace.id, userId: alice.userId };
      const [usedCode, expiredCode, liveCode] = [codeRecord(binding, { expiresAt: january }), codeRecord(binding, { expiresAt: second }), codeRecord(binding)];
      for (const code of [usedCode, expiredCode, liveCode]) await store.createAuthorizationCode(code);
      const redeemed = grantRecord(binding, { createdAt: december });
      expect(await store.redeemAuthorizationCode(usedCode.id, redeemed, [tokenRecord(redeemed, 'access', { expiresAt: january })])).toEqual({ kind: 'redeemed' });

      expect(await store.pruneAuthorizationCodes(cutOff, 1)).toBe(1);
      expect(await store.findAuthorizationCode(usedCode.codeHash)).toBeUndefined();
      expect(await store.findAuthorizationCode(expiredCode.codeHash)).toBeDefined();
      expect(await store.pruneAuthorizationCodes(cutOff, 10)).toBe(1);
      expect(await store.pruneAuthorizationCodes(cutOff, 10)).toBe(0);
      expect(await store.findAuthorizationCode(liveCode.codeHash)).toEqual(liveCode);

      const spent = grantRecord(binding, { createdAt: december });
      const [spentAccess, spentRefresh] = [tokenRecord(spent, 'access', { expiresAt: january }), tokenRecord(spent, 'refresh', { expiresAt: second })];
      await store.issueGrant(spent, [spentAccess, spentRefresh]);
      const alive = grantRecord(binding, { createdAt: december });
      const [aliveAccess, aliveRefresh] = [tokenRecord(alive, 'access', { expiresAt: second }), tokenRecord(alive, 'refresh')];
      await store.issueGrant(alive, [aliveAccess, aliveRefresh]);

      expect(await store.pruneTokens(cutOff, 2)).toBe(2);
      expect(await store.pruneTokens(cutOff, 10)).toBe(2);
      expect(await store.pruneTokens(cutOff, 10)).toBe(0);
      for (const token of [spentAccess, spentRefresh, aliveAccess]) expect(await store.findToken(token.tokenHash)).toBeUndefined();
      expect(await store.findToken(aliveRefresh.tokenHash)).toEqual(aliveRefresh);
    });

    test('a grant goes once created before the cut-off with no token left; one with a live token, or a younger one, stays', async () => {
      const { workspace } = await seed();
      const alice = await member(workspace.id, 'owner');
      const binding = { workspaceId: workspace.id, userId: alice.userId };
      const [first, second, alive] = [grantRecord(binding, { createdAt: december }), grantRecord(binding, { createdAt: january }), grantRecord(binding, { createdAt: december })];
      await store.issueGrant(first, [tokenRecord(first, 'refresh', { expiresAt: january })]);
      await store.issueGrant(second, [tokenRecord(second, 'refresh', { expiresAt: january })]);
      await store.issueGrant(alive, [tokenRecord(alive, 'refresh')]);
      const young = grantRecord(binding, { createdAt: '2026-03-01T00:00:00.000Z' });
      await store.issueGrant(young, []);
      // Their tokens are still there, expired or not.
      expect(await store.pruneGrants(cutOff, 10)).toBe(0);
      expect(await store.pruneTokens(cutOff, 10)).toBe(2);

      expect(await store.pruneGrants(cutOff, 1)).toBe(1);
      expect(await store.getGrant(first.id)).toBeUndefined();
      expect(await store.pruneGrants(cutOff, 10)).toBe(1);
      expect(await store.pruneGrants(cutOff, 10)).toBe(0);
      expect(await store.getGrant(second.id)).toBeUndefined();
      expect(await store.getGrant(alive.id)).toEqual(alive);
      expect(await store.getGrant(young.id)).toEqual(young);
    });
  });
}
