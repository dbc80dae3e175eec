// The internal RPCs the platform-users service manages a platform's customers with: RegisterCustomer,
// ListCustomers, GetCustomer, IssueUserTokens, RevokeUserCredentials and SetInitialPassword; and
// the built-in client their tokens belong to.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code, ConnectError } from '@connectrpc/connect';
import { canonicalScopes, roleScopes } from '@voice/runtime/access';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { InProcessNotifier } from '@voice/runtime/nats';
import type { RegisterCustomerRequest } from '@voice/proto/voice/identity/v1/identity';
import { startIdentityService } from '../src/main.js';
import { platformClientId } from '../src/oauth/platform-client.js';
import { openSqliteIdentityStore } from '../src/store/sqlite.js';
import { failure, pkce, redirectUri, setup, tokensFor, type Harness } from './harness.js';

let h: Harness;
let platformId: string;

beforeEach(async () => {
  h = await setup();
  platformId = (await h.newWorkspace('Platform')).id;
});
afterEach(async () => {
  await h.store.close();
});

type RegisterFields = Partial<Omit<RegisterCustomerRequest, '$typeName' | '$unknown'>>;

const registration = (fields: RegisterFields = {}) =>
  h.client.registerCustomer(
    { platformWorkspaceId: platformId, email: `${newId().slice(0, 8)}@example.com`, name: '', password: '', plan: 'pro', workspaceName: '', ...fields },
    h.gateway,
  );

const register = async (fields: RegisterFields = {}) => (await registration(fields)).customer!;

const workspaceOf = (customer: { workspaces: { workspace?: { id: string } }[] }) => customer.workspaces[0]!.workspace!.id;

const list = (fields: { query?: string; limit?: number; offset?: number; platformWorkspaceId?: string } = {}) =>
  h.client.listCustomers({ platformWorkspaceId: platformId, query: '', limit: 0, offset: 0, ...fields }, h.gateway);

/** The message of a refused call, or 'ok'. */
const outcomeOf = (call: Promise<unknown>) =>
  call.then(
    () => 'ok',
    (error: unknown) => ConnectError.from(error).rawMessage,
  );

const conflict = (message: string) => ({ code: Code.FailedPrecondition, reason: 'conflict', message });
const notFound = { code: Code.NotFound, reason: 'not_found' };
const password = 'correct horse battery';

describe('RegisterCustomer', () => {
  test('creates the user, a workspace under the platform on the plan, and the active owner membership', async () => {
    const customer = await register({ email: '  Ada@Example.COM ', name: ' Ada Lovelace ', password, plan: 'starter', workspaceName: ' Engines ' });
    expect(customer).toMatchObject({
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      hasPassword: true,
      workspaces: [{ role: 'owner', workspace: { name: 'Engines', plan: 'starter', features: [], status: 'active', parentWorkspaceId: platformId } }],
    });
    expect(customer.workspaces).toHaveLength(1);
    expect(customer.createdAt).toBeDefined();
    const workspaceId = workspaceOf(customer);
    expect(await h.store.getMember(workspaceId, customer.userId)).toMatchObject({ role: 'owner', status: 'active', email: 'ada@example.com' });
    expect((await h.client.getWorkspace({ id: workspaceId }, h.gateway)).workspace?.parentWorkspaceId).toBe(platformId);
    const login = await h.client.verifyPassword({ email: 'ADA@example.com', password, realmWorkspaceId: platformId }, h.gateway);
    // The platform's customers are users of its realm, unknown to the root platform's.
    expect((await failure(h.client.verifyPassword({ email: 'ada@example.com', password }, h.gateway))).code).toBe(Code.Unauthenticated);
    expect(login).toMatchObject({ userId: customer.userId, memberships: [{ workspaceId, workspaceName: 'Engines', role: 'owner' }] });
    expect((await h.client.getCustomer({ platformWorkspaceId: platformId, userId: customer.userId }, h.gateway)).customer).toEqual(customer);
  });

  test('without a name the user is named after the e-mail and the workspace after the user; without a password the user is invited', async () => {
    const unnamed = await register({ email: 'Grace.Hopper@navy.example' });
    expect(unnamed).toMatchObject({ name: 'Grace.Hopper', hasPassword: false, workspaces: [{ workspace: { name: 'Grace.Hopper', plan: 'pro' } }] });
    expect((await h.store.getUser(unnamed.userId))?.passwordHash).toBeNull();
    expect((await failure(h.client.verifyPassword({ email: 'grace.hopper@navy.example', password, realmWorkspaceId: platformId }, h.gateway))).code).toBe(Code.Unauthenticated);
    const named = await register({ name: 'Ada' });
    expect(named.workspaces[0]!.workspace?.name).toBe('Ada');
  });

  test('validates every field, naming each, and writes nothing', async () => {
    const refused = await failure(
      registration({ platformWorkspaceId: newId(), email: 'nope', name: 'x'.repeat(201), password: 'short', plan: 'platinum', workspaceName: 'y'.repeat(201) }),
    );
    expect(refused).toMatchObject({ code: Code.InvalidArgument, reason: 'invalid_request' });
    expect(refused.fields.map((f) => f.field)).toEqual(['platform_workspace_id', 'email', 'name', 'password', 'plan', 'workspace_name']);
    for (const platformWorkspaceId of ['not-a-uuid', '']) {
      expect((await failure(registration({ platformWorkspaceId }))).fields).toEqual([{ field: 'platform_workspace_id', issue: 'must name an existing workspace' }]);
    }
    expect((await failure(registration({ password: '123456789' }))).fields).toEqual([{ field: 'password', issue: 'must be 10 to 200 characters' }]);
    expect((await failure(registration({ plan: '' }))).fields).toEqual([{ field: 'plan', issue: 'must be starter, pro or enterprise' }]);
    expect(await list()).toMatchObject({ customers: [], total: 0 });
  });

  test('an e-mail a user of the platform’s realm already has invites that user to own the new workspace; its password and name stay its own', async () => {
    const ada = await register({ email: 'ada@example.com', name: 'Ada Lovelace', password });
    const again = await registration({ email: ' ADA@example.com', name: 'Someone', password: 'a password chosen for her', workspaceName: 'Second' });
    expect(again).toMatchObject({ invited: true, signIn: true });
    expect(again.customer).toMatchObject({ userId: ada.userId, name: 'Someone', hasPassword: false, workspaces: [{ role: 'owner', workspace: { name: 'Second' } }] });
    const second = workspaceOf(again.customer!);
    // Not an owner until Ada accepts with her own password; the chosen one was never applied.
    expect((await h.client.getCustomer({ platformWorkspaceId: platformId, userId: ada.userId }, h.gateway)).customer!.workspaces).toHaveLength(1);
    expect((await failure(h.client.acceptMembership({ workspaceId: second, userId: ada.userId, password: 'a password chosen for her' }, h.gateway))).code).toBe(
      Code.Unauthenticated,
    );
    await h.client.acceptMembership({ workspaceId: second, userId: ada.userId, password }, h.gateway);
    expect((await h.client.getCustomer({ platformWorkspaceId: platformId, userId: ada.userId }, h.gateway)).customer).toMatchObject({ name: 'Ada Lovelace', workspaces: [{ workspace: { name: 'Ada Lovelace' } }, { workspace: { name: 'Second' } }] });
    // A member of the root platform's realm is another user: the platform's customer is a user of its own.
    const elsewhere = await h.newWorkspace('Elsewhere');
    const grace = await h.addMember(elsewhere.id, 'member', { email: 'grace@example.com' });
    const registered = await registration({ email: 'grace@example.com', password });
    expect(registered.invited).toBe(false);
    expect(registered.customer!.userId).not.toBe(grace.userId);
  });

  test('of ten concurrent registrations of one e-mail exactly one registers; the others invite that user to their workspaces', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => registration({ email: 'race@example.com', password, workspaceName: `Attempt ${i}` })),
    );
    const registered = answers.filter((answer) => !answer.invited);
    expect(registered).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.customer!.userId)).size).toBe(1);
    const listed = await list();
    expect(listed.total).toBe(1);
    expect(listed.customers[0]!.workspaces.map((w) => w.workspace?.name)).toEqual([registered[0]!.customer!.workspaces[0]!.workspace!.name]);
  });
});

test('every customer RPC is internal: a workspace caller and a user are refused', async () => {
  const customer = await register();
  const workspaceId = workspaceOf(customer);
  const userId = customer.userId;
  for (const caller of [h.serviceAccount(platformId), h.asUser(workspaceId, userId)]) {
    const calls = [
      h.client.registerCustomer({ platformWorkspaceId: platformId, email: 'new@example.com', plan: 'pro' }, caller),
      h.client.listCustomers({ platformWorkspaceId: platformId }, caller),
      h.client.getCustomer({ platformWorkspaceId: platformId, userId }, caller),
      h.client.issueUserTokens({ workspaceId, userId }, caller),
      h.client.revokeUserCredentials({ workspaceId, userId }, caller),
      h.client.setInitialPassword({ userId, password }, caller),
    ];
    for (const call of calls) expect(await failure(call)).toMatchObject({ code: Code.PermissionDenied, reason: 'forbidden' });
  }
  expect(await h.store.findUserByEmail(platformId, 'new@example.com')).toBeUndefined();
  expect((await h.store.getUser(userId))?.passwordHash).toBeNull();
});

describe('GetCustomer and ListCustomers', () => {
  const get = (userId: string, platformWorkspaceId = platformId) => h.client.getCustomer({ platformWorkspaceId, userId }, h.gateway);

  test('a customer owns workspaces under the platform; admins, other platforms’ customers and strangers are not found', async () => {
    const customer = await register({ name: 'Ada' });
    const first = workspaceOf(customer);
    const second = (await h.client.createWorkspace({ name: 'Second', plan: 'starter', parentWorkspaceId: platformId }, h.gateway)).workspace!;
    await h.client.setInitialPassword({ userId: customer.userId, password }, h.gateway);
    await h.addMember(second.id, 'owner', { email: customer.email, password });
    await h.client.setWorkspaceStatus({ workspaceId: second.id, status: 'suspended' }, h.gateway);
    const admin = await h.addMember(first, 'admin');
    const otherPlatform = (await h.newWorkspace('Other platform')).id;
    const foreign = await register({ platformWorkspaceId: otherPlatform });
    // An owner made by AddMember is a customer as much as a registered one.
    const third = (await h.client.createWorkspace({ name: 'Third', plan: 'pro', parentWorkspaceId: platformId }, h.gateway)).workspace!;
    const added = await h.addMember(third.id, 'owner');

    const shown = (await get(customer.userId)).customer!;
    expect(shown.workspaces.map((w) => [w.workspace?.name, w.workspace?.status, w.role])).toEqual([
      ['Ada', 'active', 'owner'],
      ['Second', 'suspended', 'owner'],
    ]);
    expect((await get(added.userId)).customer).toMatchObject({ email: added.email, hasPassword: true, workspaces: [{ workspace: { id: third.id } }] });
    expect((await get(foreign.userId, otherPlatform)).customer?.userId).toBe(foreign.userId);
    for (const [userId, platform] of [
      [admin.userId, platformId],
      [foreign.userId, platformId],
      [customer.userId, otherPlatform],
      [newId(), platformId],
      ['not-a-uuid', platformId],
      [customer.userId, 'not-a-uuid'],
      [customer.userId, first],
    ] as const) {
      expect(await failure(get(userId, platform))).toMatchObject(notFound);
    }
    const listed = await list();
    expect(listed.total).toBe(2);
    expect(listed.customers.map((c) => c.userId)).toEqual([added.userId, customer.userId]);
  });

  test('lists newest first with the total of distinct customers, and pages', async () => {
    const registered = [];
    for (let i = 0; i < 4; i += 1) registered.push(await register());
    // A second workspace neither counts its owner twice nor makes it newer.
    const more = (await h.client.createWorkspace({ name: 'More', plan: 'pro', parentWorkspaceId: platformId }, h.gateway)).workspace!;
    await h.addMember(more.id, 'owner', { email: registered[0]!.email });
    await register({ platformWorkspaceId: (await h.newWorkspace('Other platform')).id });
    const newestFirst = registered.map((c) => c.userId).reverse();

    const all = await list();
    expect(all.total).toBe(4);
    expect(all.customers.map((c) => c.userId)).toEqual(newestFirst);
    expect(all.customers[3]!.workspaces).toHaveLength(2);
    const page = await list({ limit: 2, offset: 1 });
    expect(page.total).toBe(4);
    expect(page.customers.map((c) => c.userId)).toEqual(newestFirst.slice(1, 3));
    expect(await list({ limit: 10, offset: 10 })).toMatchObject({ customers: [], total: 4 });
    for (const platformWorkspaceId of [newId(), 'not-a-uuid', '']) expect(await list({ platformWorkspaceId })).toMatchObject({ customers: [], total: 0 });
  });

  test('the query matches e-mail or name case-insensitively, with % and _ taken literally', async () => {
    const ada = await register({ email: 'ada@example.com', name: 'Ada Lovelace' });
    const grace = await register({ email: 'grace@navy.example', name: 'Grace Hopper' });
    const percent = await register({ email: '100%_sure@example.com', name: 'Sure' });
    const snake = await register({ email: 'snake@example.com', name: 'snake_case' });
    const found = async (query: string) => {
      const listed = await list({ query });
      expect(listed.total).toBe(listed.customers.length);
      return listed.customers.map((c) => c.userId);
    };
    expect(await found('LOVELACE')).toEqual([ada.userId]);
    expect(await found(' navy ')).toEqual([grace.userId]);
    expect(await found('%')).toEqual([percent.userId]);
    expect(await found('_')).toEqual([snake.userId, percent.userId]);
    for (const query of ['a_a', 'a%e', '.*']) expect(await found(query)).toEqual([]);
    expect(await list({ query: 'EXAMPLE', limit: 1 })).toMatchObject({ total: 4, customers: [{ userId: snake.userId }] });
    expect(await failure(list({ query: 'x'.repeat(255) }))).toMatchObject({
      code: Code.InvalidArgument,
      fields: [{ field: 'query', issue: 'must be at most 254 characters' }],
    });
  });
});

describe('IssueUserTokens', () => {
  const issue = (workspaceId: string, userId: string) => h.client.issueUserTokens({ workspaceId, userId }, h.gateway);
  const refresh = (refreshToken: string) => h.client.refreshAccessToken({ clientId: platformClientId, refreshToken }, h.gateway);

  test('an owner’s tokens authenticate with every scope and refresh through the built-in client', async () => {
    const customer = await register({ name: 'Ada' });
    const workspaceId = workspaceOf(customer);
    const tokens = await issue(workspaceId, customer.userId);
    expect(tokens).toMatchObject({ tokenType: 'Bearer', expiresIn: 3600, clientId: platformClientId });
    expect(tokens.accessToken).toMatch(/^svc_at_/);
    expect(tokens.refreshToken).toMatch(/^svc_rt_/);
    const auth = await h.client.authenticate({ credential: tokens.accessToken }, h.gateway);
    expect(auth).toMatchObject({ principal: { type: 'user', id: customer.userId, name: 'Ada' }, workspace: { id: workspaceId }, unrestricted: false });
    expect(auth.scopes).toEqual([...canonicalScopes]);

    const refreshed = (await refresh(tokens.refreshToken)).tokens!;
    expect(refreshed.scopes).toEqual([...canonicalScopes]);
    expect((await h.client.authenticate({ credential: refreshed.accessToken }, h.gateway)).principal?.id).toBe(customer.userId);
    // Rotation as for any client: the old refresh token is spent, and replaying it ends the grant.
    expect(await failure(refresh(tokens.refreshToken))).toMatchObject({ oauthError: 'invalid_grant' });
    expect(await failure(refresh(refreshed.refreshToken))).toMatchObject({ oauthError: 'invalid_grant' });
  });

  test('the role narrows the scopes, as always', async () => {
    const customer = await register();
    const workspaceId = workspaceOf(customer);
    const member = await h.addMember(workspaceId, 'member');
    const tokens = await issue(workspaceId, member.userId);
    expect((await h.client.authenticate({ credential: tokens.accessToken }, h.gateway)).scopes).toEqual([...roleScopes('member')]);
  });

  test('refused for a suspended workspace or member; not found for anyone who is no member', async () => {
    const customer = await register();
    const workspaceId = workspaceOf(customer);
    const suspendedMember = await h.addMember(workspaceId, 'member');
    await h.client.updateMember({ userId: suspendedMember.userId, status: 'suspended' }, h.serviceAccount(workspaceId));
    const suspended = conflict('the user or its workspace is suspended');
    expect(await failure(issue(workspaceId, suspendedMember.userId))).toMatchObject(suspended);
    for (const [workspace, user] of [
      [workspaceId, newId()],
      [platformId, customer.userId],
      ['not-a-uuid', customer.userId],
      [workspaceId, ''],
    ] as const) {
      expect(await failure(issue(workspace, user))).toMatchObject(notFound);
    }
    await h.client.setWorkspaceStatus({ workspaceId, status: 'suspended' }, h.gateway);
    expect(await failure(issue(workspaceId, customer.userId))).toMatchObject(suspended);
    expect(await h.store.activeAccessTokenIds(workspaceId, customer.userId)).toEqual([]);
  });

  test('the built-in client exists, public and refresh-only, and can take no part in an authorization request', async () => {
    expect(await h.store.getClient(platformClientId)).toMatchObject({
      name: 'Platform-issued tokens',
      redirectUris: [],
      grantTypes: ['refresh_token'],
      tokenEndpointAuthMethod: 'none',
      secretHash: null,
      scopes: [...canonicalScopes],
    });
    const customer = await register();
    const { verifier, challenge } = pkce();
    const checked = await failure(
      h.client.checkAuthorizationRequest(
        { clientId: platformClientId, redirectUri, responseType: 'code', codeChallengeMethod: 'S256', codeChallenge: challenge, scope: '' },
        h.gateway,
      ),
    );
    expect(checked).toMatchObject({ code: Code.InvalidArgument, oauthError: 'invalid_request', message: 'redirect_uri is not registered for this client' });
    const issued = await failure(
      h.client.issueAuthorizationCode(
        { clientId: platformClientId, userId: customer.userId, workspaceId: workspaceOf(customer), redirectUri, scopes: ['calls:read'], codeChallenge: challenge },
        h.gateway,
      ),
    );
    expect(issued).toMatchObject({ oauthError: 'invalid_request' });
    const exchanged = await failure(
      h.client.exchangeAuthorizationCode({ clientId: platformClientId, code: 'svc_ac_whatever', redirectUri, codeVerifier: verifier }, h.gateway),
    );
    expect(exchanged).toMatchObject({ oauthError: 'unauthorized_client' });
  });
});

describe('RevokeUserCredentials', () => {
  test('revokes the user’s tokens of one workspace, announced, and answers how many were active', async () => {
    const customer = await register();
    const workspaceId = workspaceOf(customer);
    const member = { workspaceId, userId: customer.userId };
    const first = await h.client.issueUserTokens(member, h.gateway);
    const second = await h.client.issueUserTokens(member, h.gateway);
    const rotated = (await h.client.refreshAccessToken({ clientId: platformClientId, refreshToken: second.refreshToken }, h.gateway)).tokens!;
    const viaOAuth = await tokensFor(h, member, ['calls:read']);
    const other = (await h.client.createWorkspace({ name: 'Other', plan: 'pro', parentWorkspaceId: platformId }, h.gateway)).workspace!;
    await h.addMember(other.id, 'owner', { email: customer.email });
    const elsewhere = await h.client.issueUserTokens({ workspaceId: other.id, userId: customer.userId }, h.gateway);
    const accessTokens = [first.accessToken, second.accessToken, rotated.accessToken, viaOAuth.accessToken];
    const credentialIds = await Promise.all(accessTokens.map(async (credential) => (await h.client.authenticate({ credential }, h.gateway)).credentialId));
    h.notices.length = 0;

    // Still active: four access tokens and the refresh tokens of the first, the rotation and the OAuth grant.
    expect(await h.client.revokeUserCredentials(member, h.gateway)).toMatchObject({ revokedTokens: 7 });
    expect(h.notices).toHaveLength(1);
    expect(h.notices[0]!.credentialIds).toHaveLength(7);
    expect(h.notices[0]!.credentialIds).toEqual(expect.arrayContaining(credentialIds));
    for (const credential of accessTokens) expect((await failure(h.client.authenticate({ credential }, h.gateway))).code).toBe(Code.Unauthenticated);
    for (const refreshToken of [first.refreshToken, rotated.refreshToken]) {
      expect(await failure(h.client.refreshAccessToken({ clientId: platformClientId, refreshToken }, h.gateway))).toMatchObject({ oauthError: 'invalid_grant' });
    }
    expect(await failure(h.client.refreshAccessToken({ clientId: viaOAuth.clientId, refreshToken: viaOAuth.refreshToken }, h.gateway))).toMatchObject({
      oauthError: 'invalid_grant',
    });
    expect((await h.client.authenticate({ credential: elsewhere.accessToken }, h.gateway)).workspace?.id).toBe(other.id);

    h.notices.length = 0;
    expect(await h.client.revokeUserCredentials(member, h.gateway)).toMatchObject({ revokedTokens: 0 });
    expect(h.notices).toEqual([]);
    expect(await failure(h.client.revokeUserCredentials({ workspaceId, userId: newId() }, h.gateway))).toMatchObject(notFound);
    expect(await failure(h.client.revokeUserCredentials({ workspaceId: 'nope', userId: customer.userId }, h.gateway))).toMatchObject(notFound);
  });
});

describe('SetInitialPassword', () => {
  const setPassword = (userId: string, newPassword: string) => h.client.setInitialPassword({ userId, password: newPassword }, h.gateway);
  const signIn = (email: string, attempt: string) => outcomeOf(h.client.verifyPassword({ email, password: attempt, realmWorkspaceId: platformId }, h.gateway));

  test('an invited customer chooses a password once, and signs in with it', async () => {
    const invited = await register();
    expect(await setPassword(invited.userId, password)).toBeDefined();
    expect((await h.client.verifyPassword({ email: invited.email, password, realmWorkspaceId: platformId }, h.gateway)).userId).toBe(invited.userId);
    expect((await h.client.getCustomer({ platformWorkspaceId: platformId, userId: invited.userId }, h.gateway)).customer?.hasPassword).toBe(true);
    expect(await failure(setPassword(invited.userId, 'another password'))).toMatchObject(conflict('the password is already set'));
    expect(await signIn(invited.email, 'another password')).toBe('the e-mail or password is wrong');
    expect(await signIn(invited.email, password)).toBe('ok');
  });

  test('validates the password, and needs an existing user without one', async () => {
    const invited = await register();
    expect(await failure(setPassword(invited.userId, 'short'))).toMatchObject({
      code: Code.InvalidArgument,
      fields: [{ field: 'password', issue: 'must be 10 to 200 characters' }],
    });
    for (const userId of [newId(), 'not-a-uuid']) expect(await failure(setPassword(userId, password))).toMatchObject(notFound);
    const registered = await register({ password });
    expect(await failure(setPassword(registered.userId, 'another password'))).toMatchObject(conflict('the password is already set'));
    expect(await signIn(registered.email, password)).toBe('ok');
    expect((await h.store.getUser(invited.userId))?.passwordHash).toBeNull();
  });

  test('of concurrent calls exactly one sets the password', async () => {
    const invited = await register();
    const passwords = Array.from({ length: 5 }, (_, i) => `${password} ${i}`);
    const outcomes = await Promise.all(passwords.map((candidate) => outcomeOf(setPassword(invited.userId, candidate))));
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'the password is already set')).toHaveLength(4);
    const signIns = await Promise.all(passwords.map((candidate) => signIn(invited.email, candidate)));
    expect(signIns.map((o) => o === 'ok')).toEqual(outcomes.map((o) => o === 'ok'));
  });
});

test('identity creates the built-in client on its first start and leaves it alone on later ones', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'identity-start-'));
  const env = { DATA_DIR: dir, VOICE_INTERNAL_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent', VOICE_IDENTITY_PORT: '0' };
  const notifier = new InProcessNotifier();
  const options = { logger: createLogger({ service: 'identity-start-test', level: 'silent' }), notifier, announce: () => {} };
  const clientAfterStart = async () => {
    await (await startIdentityService(env, options)).close();
    const store = openSqliteIdentityStore(join(dir, 'identity.sqlite'));
    try {
      return await store.getClient(platformClientId);
    } finally {
      await store.close();
    }
  };
  try {
    const first = await clientAfterStart();
    expect(first).toMatchObject({ id: platformClientId, grantTypes: ['refresh_token'], redirectUris: [] });
    expect(await clientAfterStart()).toEqual(first);
  } finally {
    await notifier.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
