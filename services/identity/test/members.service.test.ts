// ListMembers, AddMember, UpdateMember and RemoveMember: the role rules, last-owner protection,
// validation, and what happens to credentials when a member goes.
import { Code } from '@connectrpc/connect';
import { newId } from '@voice/runtime/ids';
import { failure, harnessPasswordHashCost, memberPassword, setup, tokensFor, type Harness } from './harness.js';

let h: Harness;
let workspaceId: string;

beforeEach(async () => {
  h = await setup();
  workspaceId = (await h.newWorkspace()).id;
});
afterEach(async () => {
  await h.store.close();
});

describe('AddMember', () => {
  const invite = (fields: { email: string; role?: string; name?: string; password?: string }, workspace = workspaceId) =>
    h.client.addMember({ role: 'member', name: '', password: '', ...fields }, h.serviceAccount(workspace));

  test('invites a new e-mail: a user without a password, named after the e-mail’s local part, invited until it accepts', async () => {
    const answer = await invite({ email: '  Ada.Lovelace@Example.COM ', role: 'admin' });
    expect(answer.member).toMatchObject({ email: 'ada.lovelace@example.com', name: 'Ada.Lovelace', role: 'admin', status: 'invited' });
    expect(answer.member!.userId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.member!.createdAt).toBeDefined();
    // The root's direct customer's realm is the root's; a new user chooses a password when accepting.
    expect(answer).toMatchObject({ realmWorkspaceId: h.root.workspace!.id, signIn: false });
    const user = await h.store.getUser(answer.member!.userId);
    expect(user?.passwordHash).toBeNull();
    // Invited: no sign-in, no tokens, not a member anyone may change yet.
    expect((await failure(tokensFor(h, { workspaceId, userId: answer.member!.userId }, ['calls:read']))).code).toBe(Code.InvalidArgument);
    expect((await failure(h.client.updateMember({ userId: answer.member!.userId, role: 'member' }, h.serviceAccount(workspaceId)))).reason).toBe('conflict');
  });

  test('an existing user of the realm is invited as it is, named as the inviter named it, and joins only with its own password', async () => {
    const first = await h.addMember(workspaceId, 'owner', { email: 'ada@example.com', password: 'first password', name: 'Ada Lovelace' });
    const other = await h.newWorkspace('Other');
    const answer = await invite({ email: 'ADA@example.com', name: 'Someone' }, other.id);
    expect(answer.member).toMatchObject({ userId: first.userId, name: 'Someone', status: 'invited' });
    expect(answer.signIn).toBe(true);
    const listed = await h.client.listMembers({ limit: 10 }, h.serviceAccount(other.id));
    expect(listed.members.map((m) => m.name)).toEqual(['Someone']);
    expect(listed.members.map((m) => [m.email, m.name, m.status])).toEqual([['ada@example.com', 'Someone', 'invited']]);

    const accept = (password: string) => h.client.acceptMembership({ workspaceId: other.id, userId: first.userId, password }, h.gateway);
    expect(await failure(accept('second password'))).toMatchObject({ code: Code.Unauthenticated, reason: 'unauthorized' });
    expect(await accept('first password')).toEqual(expect.objectContaining({ email: 'ada@example.com' }));
    expect((await h.client.listMembers({ limit: 10 }, h.serviceAccount(other.id))).members[0]).toMatchObject({ name: 'Ada Lovelace', status: 'active' });
    expect((await failure(accept('first password'))).code).toBe(Code.NotFound);
  });

  test('a new user’s acceptance chooses its password once; a password in the request is refused', async () => {
    const answer = await invite({ email: 'grace@example.com', name: 'Grace Hopper' });
    const userId = answer.member!.userId;
    expect((await failure(h.client.acceptMembership({ workspaceId, userId, password: 'short' }, h.gateway))).fields).toEqual([{ field: 'password', issue: 'must be 10 to 200 characters' }]);
    await h.client.acceptMembership({ workspaceId, userId, password: 'correct horse battery' }, h.gateway);
    expect((await h.store.getUser(userId))?.passwordHash).toMatch(new RegExp(`^scrypt\\$${2 ** harnessPasswordHashCost}\\$8\\$1\\$[A-Za-z0-9+/=]{24}\\$[A-Za-z0-9+/=]{44}$`));
    expect((await h.client.verifyPassword({ email: 'grace@example.com', password: 'correct horse battery' }, h.gateway)).userId).toBe(userId);
    expect((await failure(invite({ email: 'someone@example.com', password: 'a password chosen for them' }))).fields).toEqual([
      { field: 'password', issue: 'is not accepted: the invited person chooses their own password' },
    ]);
    expect(await h.store.findUserByEmail(h.root.workspace!.id, 'someone@example.com')).toBeUndefined();
  });

  test('a member cannot be added twice; an invited one is answered as it is', async () => {
    const invited = await invite({ email: 'ada@example.com', name: 'Ada' });
    expect((await invite({ email: 'ada@example.com', role: 'admin', name: 'Other' })).member).toEqual(invited.member);
    await h.client.acceptMembership({ workspaceId, userId: invited.member!.userId, password: memberPassword }, h.gateway);
    expect(await failure(invite({ email: 'ada@example.com' }))).toMatchObject({ code: Code.FailedPrecondition, reason: 'conflict' });
  });

  test('only a pending membership is accepted', async () => {
    const active = await h.addMember(workspaceId, 'member');
    for (const [workspace, userId] of [[workspaceId, active.userId], [workspaceId, newId()], [newId(), active.userId], ['not-a-uuid', 'x']] as const) {
      expect((await failure(h.client.acceptMembership({ workspaceId: workspace, userId, password: memberPassword }, h.gateway))).code).toBe(Code.NotFound);
    }
    expect((await failure(h.client.acceptMembership({ workspaceId, userId: active.userId, password: memberPassword }, h.serviceAccount(workspaceId)))).code).toBe(
      Code.PermissionDenied,
    );
  });

  test('validates e-mail, role, password and name, naming each field', async () => {
    const refused = await failure(
      h.client.addMember({ email: 'not-an-email', role: 'boss', password: 'short', name: 'x'.repeat(201) }, h.serviceAccount(workspaceId)),
    );
    expect(refused).toMatchObject({ code: Code.InvalidArgument, reason: 'invalid_request' });
    expect(refused.fields.map((f) => f.field)).toEqual(['email', 'role', 'password', 'name']);
    for (const email of ['a@b', '@example.com', 'a b@example.com', 'a@example..com', `${'x'.repeat(250)}@example.com`]) {
      expect((await failure(invite({ email }))).fields.map((f) => f.field)).toEqual(['email']);
    }
  });

  test('needs a workspace caller', async () => {
    expect((await failure(h.client.addMember({ email: 'a@example.com', role: 'member', password: '', name: '' }, h.gateway))).code).toBe(Code.Unauthenticated);
  });
});

describe('ListMembers', () => {
  test('lists the workspace’s members newest first with the total, and pages', async () => {
    const added = [];
    for (const role of ['owner', 'admin', 'member', 'member'] as const) added.push(await h.addMember(workspaceId, role));
    const other = await h.newWorkspace('Other');
    await h.addMember(other.id, 'owner');
    const all = await h.client.listMembers({ limit: 0, offset: 0 }, h.serviceAccount(workspaceId));
    expect(all.total).toBe(4);
    expect(all.members.map((m) => m.userId)).toEqual(added.map((m) => m.userId).reverse());
    const page = await h.client.listMembers({ limit: 2, offset: 1 }, h.serviceAccount(workspaceId));
    expect(page.members.map((m) => m.userId)).toEqual([added[2]!.userId, added[1]!.userId]);
    expect(page.total).toBe(4);
  });
});

describe('role rules', () => {
  test('an admin manages admins and members but never owners or the owner role', async () => {
    const owner = await h.addMember(workspaceId, 'owner');
    const admin = await h.addMember(workspaceId, 'admin');
    const member = await h.addMember(workspaceId, 'member');
    const asAdmin = h.asUser(workspaceId, admin.userId);
    const forbidden = { code: Code.PermissionDenied, reason: 'forbidden' };

    expect((await h.client.addMember({ email: 'new-admin@example.com', role: 'admin', password: '', name: '' }, asAdmin)).member?.role).toBe('admin');
    expect(await failure(h.client.addMember({ email: 'new-owner@example.com', role: 'owner', password: '', name: '' }, asAdmin))).toMatchObject(forbidden);
    expect((await h.client.updateMember({ userId: member.userId, role: 'admin' }, asAdmin)).member?.role).toBe('admin');
    expect((await h.client.updateMember({ userId: member.userId, role: 'member', status: 'suspended' }, asAdmin)).member).toMatchObject({ role: 'member', status: 'suspended' });
    expect(await failure(h.client.updateMember({ userId: member.userId, role: 'owner' }, asAdmin))).toMatchObject(forbidden);
    expect(await failure(h.client.updateMember({ userId: owner.userId, status: 'suspended' }, asAdmin))).toMatchObject(forbidden);
    expect(await failure(h.client.updateMember({ userId: owner.userId, role: 'owner' }, asAdmin))).toMatchObject(forbidden);
    expect(await failure(h.client.removeMember({ userId: owner.userId }, asAdmin))).toMatchObject(forbidden);
    await h.client.removeMember({ userId: member.userId }, asAdmin);
    expect(await h.store.getMember(workspaceId, owner.userId)).toMatchObject({ role: 'owner', status: 'active' });
  });

  test('an owner grants, changes and removes the owner role', async () => {
    const owner = await h.addMember(workspaceId, 'owner');
    const admin = await h.addMember(workspaceId, 'admin');
    const asOwner = h.asUser(workspaceId, owner.userId);
    expect((await h.client.updateMember({ userId: admin.userId, role: 'owner' }, asOwner)).member?.role).toBe('owner');
    expect((await h.client.updateMember({ userId: admin.userId, role: 'member' }, asOwner)).member?.role).toBe('member');
    const second = await h.client.addMember({ email: 'co-owner@example.com', role: 'owner', password: '', name: '' }, asOwner);
    await h.client.removeMember({ userId: second.member!.userId }, asOwner);
    // An owner may step down once another owner exists.
    await h.client.updateMember({ userId: admin.userId, role: 'owner' }, asOwner);
    expect((await h.client.updateMember({ userId: owner.userId, role: 'admin' }, asOwner)).member?.role).toBe('admin');
  });

  test('a plain member and a suspended or foreign user manage nobody', async () => {
    const owner = await h.addMember(workspaceId, 'owner');
    const member = await h.addMember(workspaceId, 'member');
    const admin = await h.addMember(workspaceId, 'admin');
    expect((await failure(h.client.updateMember({ userId: admin.userId, status: 'suspended' }, h.asUser(workspaceId, member.userId)))).code).toBe(Code.PermissionDenied);
    expect((await failure(h.client.addMember({ email: 'x@example.com', role: 'member', password: '', name: '' }, h.asUser(workspaceId, member.userId)))).code).toBe(Code.PermissionDenied);
    await h.client.updateMember({ userId: admin.userId, status: 'suspended' }, h.asUser(workspaceId, owner.userId));
    expect((await failure(h.client.removeMember({ userId: member.userId }, h.asUser(workspaceId, admin.userId)))).code).toBe(Code.PermissionDenied);
    expect((await failure(h.client.removeMember({ userId: member.userId }, h.asUser(workspaceId, newId())))).code).toBe(Code.PermissionDenied);
  });

  test('service accounts and platform services are not bound by roles', async () => {
    const owner = await h.addMember(workspaceId, 'owner');
    const other = await h.addMember(workspaceId, 'owner');
    await h.client.updateMember({ userId: owner.userId, role: 'member' }, h.serviceAccount(workspaceId));
    const internal = h.as({ workspaceId, principal: { type: 'internal', id: 'platform-users', name: 'platform-users' }, scopes: null });
    const third = (await h.client.addMember({ email: 'third@example.com', role: 'owner', password: '', name: '' }, internal)).member!;
    expect(third.role).toBe('owner');
    // An invited owner is no owner yet: the last active one stays until it accepts.
    expect((await failure(h.client.removeMember({ userId: other.userId }, internal))).reason).toBe('conflict');
    await h.client.acceptMembership({ workspaceId, userId: third.userId, password: memberPassword }, h.gateway);
    await h.client.removeMember({ userId: other.userId }, internal);
  });
});

describe('the last active owner', () => {
  test('can be neither demoted, suspended nor removed, by anyone', async () => {
    const owner = await h.addMember(workspaceId, 'owner');
    const suspendedOwner = await h.addMember(workspaceId, 'owner');
    await h.client.updateMember({ userId: suspendedOwner.userId, status: 'suspended' }, h.serviceAccount(workspaceId));
    const conflict = { code: Code.FailedPrecondition, reason: 'conflict' };
    for (const caller of [h.serviceAccount(workspaceId), h.asUser(workspaceId, owner.userId)]) {
      expect(await failure(h.client.updateMember({ userId: owner.userId, role: 'admin' }, caller))).toMatchObject(conflict);
      expect(await failure(h.client.updateMember({ userId: owner.userId, status: 'suspended' }, caller))).toMatchObject(conflict);
      expect(await failure(h.client.removeMember({ userId: owner.userId }, caller))).toMatchObject(conflict);
    }
    expect(await h.store.getMember(workspaceId, owner.userId)).toMatchObject({ role: 'owner', status: 'active' });
    // Reactivating the other owner makes the first one free to go.
    await h.client.updateMember({ userId: suspendedOwner.userId, status: 'active' }, h.serviceAccount(workspaceId));
    await h.client.removeMember({ userId: owner.userId }, h.serviceAccount(workspaceId));
  });
});

describe('UpdateMember and RemoveMember', () => {
  test('an unknown, malformed or foreign user id is not_found', async () => {
    await h.addMember(workspaceId, 'owner');
    const foreign = await h.addMember((await h.newWorkspace('Other')).id, 'owner');
    const caller = h.serviceAccount(workspaceId);
    for (const userId of [newId(), 'not-a-uuid', '', foreign.userId]) {
      expect(await failure(h.client.updateMember({ userId, role: 'member' }, caller))).toMatchObject({ code: Code.NotFound, reason: 'not_found' });
      expect(await failure(h.client.removeMember({ userId }, caller))).toMatchObject({ code: Code.NotFound, reason: 'not_found' });
    }
  });

  test('validates role and status', async () => {
    const member = await h.addMember(workspaceId, 'member');
    const refused = await failure(h.client.updateMember({ userId: member.userId, role: 'boss', status: 'gone' }, h.serviceAccount(workspaceId)));
    expect(refused).toMatchObject({ code: Code.InvalidArgument, fields: [{ field: 'role' }, { field: 'status' }] });
  });

  test('an update without changes returns the member as it is', async () => {
    const member = await h.addMember(workspaceId, 'member');
    expect((await h.client.updateMember({ userId: member.userId }, h.serviceAccount(workspaceId))).member).toEqual(member);
  });
});

describe('credentials when a member goes', () => {
  test('demotion, suspension and removal each revoke the member’s tokens of this workspace at once, announced', async () => {
    await h.addMember(workspaceId, 'owner');
    const caller = h.serviceAccount(workspaceId);
    const cases: [string, (userId: string) => Promise<unknown>][] = [
      ['demotion', (userId) => h.client.updateMember({ userId, role: 'member' }, caller)],
      ['suspension', (userId) => h.client.updateMember({ userId, status: 'suspended' }, caller)],
      ['removal', (userId) => h.client.removeMember({ userId }, caller)],
    ];
    for (const [, change] of cases) {
      const admin = await h.addMember(workspaceId, 'admin');
      const tokens = await tokensFor(h, { workspaceId, userId: admin.userId }, ['calls:read', 'settings:write']);
      const auth = await h.client.authenticate({ credential: tokens.accessToken }, h.gateway);
      h.notices.length = 0;
      await change(admin.userId);
      expect(h.notices).toHaveLength(1);
      expect(h.notices[0]!.credentialIds).toContain(auth.credentialId);
      expect(h.notices[0]!.workspaceId).toBe('');
      expect((await failure(h.client.authenticate({ credential: tokens.accessToken }, h.gateway))).code).toBe(Code.Unauthenticated);
      const refreshed = await failure(h.client.refreshAccessToken({ clientId: tokens.clientId, refreshToken: tokens.refreshToken }, h.gateway));
      expect(refreshed).toMatchObject({ oauthError: 'invalid_grant' });
    }
  });

  test('a promotion revokes nothing but announces the member’s access tokens, so cached answers get the new role', async () => {
    await h.addMember(workspaceId, 'owner');
    const member = await h.addMember(workspaceId, 'member');
    const tokens = await tokensFor(h, { workspaceId, userId: member.userId }, ['calls:read', 'settings:write']);
    const before = await h.client.authenticate({ credential: tokens.accessToken }, h.gateway);
    expect(before.scopes).toEqual(['calls:read', 'settings:read']);
    h.notices.length = 0;
    await h.client.updateMember({ userId: member.userId, role: 'admin' }, h.serviceAccount(workspaceId));
    expect(h.notices.map((n) => n.credentialIds)).toEqual([[before.credentialId]]);
    expect((await h.client.authenticate({ credential: tokens.accessToken }, h.gateway)).scopes).toEqual(['calls:read', 'settings:write']);
    // A change of nothing announces nothing.
    h.notices.length = 0;
    await h.client.updateMember({ userId: member.userId, role: 'admin', status: 'active' }, h.serviceAccount(workspaceId));
    expect(h.notices).toEqual([]);
  });

  test('the member’s tokens of another workspace keep working', async () => {
    await h.addMember(workspaceId, 'owner');
    const other = await h.newWorkspace('Other');
    const member = await h.addMember(workspaceId, 'admin', { email: 'both@example.com' });
    await h.addMember(other.id, 'owner', { email: 'both@example.com' });
    const here = await tokensFor(h, { workspaceId, userId: member.userId }, ['calls:read']);
    const there = await tokensFor(h, { workspaceId: other.id, userId: member.userId }, ['calls:read']);
    await h.client.removeMember({ userId: member.userId }, h.serviceAccount(workspaceId));
    expect((await failure(h.client.authenticate({ credential: here.accessToken }, h.gateway))).code).toBe(Code.Unauthenticated);
    expect((await h.client.authenticate({ credential: there.accessToken }, h.gateway)).workspace?.id).toBe(other.id);
  });

  test('a service-account key a member created keeps working after the member is removed', async () => {
    await h.addMember(workspaceId, 'owner');
    const admin = await h.addMember(workspaceId, 'admin');
    const created = await h.client.createApiKey({ name: 'ci', scopes: ['calls:read'] }, h.asUser(workspaceId, admin.userId));
    await h.client.removeMember({ userId: admin.userId }, h.serviceAccount(workspaceId));
    const auth = await h.client.authenticate({ credential: created.key }, h.gateway);
    expect(auth).toMatchObject({ principal: { type: 'service_account', name: 'ci' }, scopes: ['calls:read'] });
  });

  test('a refused change revokes nothing', async () => {
    const owner = await h.addMember(workspaceId, 'owner');
    const tokens = await tokensFor(h, { workspaceId, userId: owner.userId }, ['settings:write']);
    h.notices.length = 0;
    await failure(h.client.updateMember({ userId: owner.userId, role: 'member' }, h.serviceAccount(workspaceId)));
    await failure(h.client.removeMember({ userId: owner.userId }, h.serviceAccount(workspaceId)));
    expect(h.notices).toEqual([]);
    expect((await h.client.authenticate({ credential: tokens.accessToken }, h.gateway)).scopes).toEqual(['settings:write']);
  });
});
