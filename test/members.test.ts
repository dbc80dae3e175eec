// Members and revocation through the gateway: roles, the last owner, and user-bound credentials
// revoked in the same transaction as the change, so the next request with them is 401.
import { Code, createClient } from '@connectrpc/connect';
import { createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { IdentityService } from '@voice/proto/voice/identity/v1/identity';
import { callHeaders } from '@voice/runtime/caller';
import { addAcceptedMember, answerInvitation, invitationLinkTo } from './support/invitations.js';
import { expectError, fieldsOf } from './support/api-client.js';
import { issueUserTokens, refreshTokens } from './support/oauth.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
let base: string;
let counter = 0;

beforeAll(async () => {
  platform = await startTestPlatform();
  base = platform.running.url;
});
afterAll(() => platform.close());

const password = 'a long enough password';
const newUser = () => ({ email: `user${(counter += 1)}.${process.pid}@example.com`, name: `User ${counter}` });

async function memberWithToken(role: string, scope = 'settings:write assistants:read') {
  const workspace = await platform.workspace({ plan: 'pro' });
  const user = { ...newUser(), password };
  const added = await addAcceptedMember(platform, workspace.key, { email: user.email, name: user.name, role }, password);
  expect(added.status).toBe(201);
  const tokens = await issueUserTokens(base, user, scope);
  return { workspace, user, userId: added.body.data.user_id as string, tokens };
}

describe('members endpoints', () => {
  test('add (an invitation the person accepts), list, change and remove members; an existing user joins another workspace by signing in', async () => {
    const workspace = await platform.workspace();
    const user = newUser();
    const added = await platform.api.post('/workspace/members', workspace.key, { ...user, role: 'admin' });
    expect(added.status).toBe(201);
    expect(added.body.data).toEqual({
      user_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: user.email,
      name: user.name,
      role: 'admin',
      status: 'invited',
      created_at: expect.any(String),
    });
    // The new person chooses their own password on the e-mailed link's page.
    const link = await invitationLinkTo(platform, user.email);
    const page = await fetch(`${base}${link.pathname}`);
    expect(await page.text()).toContain('Choose a password');
    expect((await answerInvitation(platform, link, password)).status).toBe(200);
    const listed = await platform.api.get('/workspace/members', workspace.key);
    expect(listed.body.meta.pagination.total).toBe(1);
    expect(listed.body.data[0]).toMatchObject({ user_id: added.body.data.user_id, status: 'active' });

    // Another workspace invites the same e-mail: the same person, who signs in to accept.
    const other = await platform.workspace();
    const joined = await platform.api.post('/workspace/members', other.key, { email: user.email.toUpperCase(), role: 'member', name: 'Whoever' });
    expect(joined.body.data).toMatchObject({ user_id: added.body.data.user_id, name: 'Whoever', status: 'invited' });
    const signIn = await invitationLinkTo(platform, user.email);
    expect(await (await fetch(`${base}${signIn.pathname}`)).text()).toContain('Sign in as');
    const wrong = await answerInvitation(platform, signIn, 'not the password at all');
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('is not this account’s password');
    expect((await answerInvitation(platform, signIn, password)).status).toBe(200);
    expect((await platform.api.get('/workspace/members', other.key)).body.data[0]).toMatchObject({ name: user.name, status: 'active' });
    const changed = await platform.api.patch(`/workspace/members/${added.body.data.user_id}`, workspace.key, { role: 'owner' });
    expect(changed.body.data.role).toBe('owner');
    expectError(await platform.api.post('/workspace/members', workspace.key, { email: user.email, role: 'member' }), 409, 'conflict');
    const second = await addAcceptedMember(platform, workspace.key, { ...newUser(), role: 'owner' }, password);
    const removed = await platform.api.delete(`/workspace/members/${second.body.data.user_id}`, workspace.key);
    expect(removed.body).toEqual({ data: { id: second.body.data.user_id, deleted: true } });
    expectError(await platform.api.delete(`/workspace/members/${second.body.data.user_id}`, workspace.key), 404, 'not_found');
  });

  test.each([
    [{ email: 'not-an-email', role: 'member' }, 'email'],
    [{ email: 'a@example.com', role: 'superuser' }, 'role'],
    // Nobody chooses another person's password.
    [{ email: 'a@example.com', role: 'member', password: 'a long enough password' }, 'password'],
    [{ email: 'a@example.com' }, 'role'],
    [{ email: 'a@example.com', role: 'member', admin: true }, 'admin'],
  ])('%j is 400 naming %s', async (body, field) => {
    const workspace = await platform.workspace();
    const response = await platform.api.post('/workspace/members', workspace.key, body);
    expectError(response, 400, 'invalid_request');
    expect(fieldsOf(response)).toContain(field);
  });

  test('settings:read may list, not change; another workspace\'s member is 404', async () => {
    const workspace = await platform.workspace();
    const added = await platform.api.post('/workspace/members', workspace.key, { ...newUser(), role: 'member' });
    const reader = await platform.key(workspace.id, ['settings:read']);
    expect((await platform.api.get('/workspace/members', reader)).status).toBe(200);
    expectError(await platform.api.patch(`/workspace/members/${added.body.data.user_id}`, reader, { role: 'admin' }), 403, 'forbidden');
    const stranger = await platform.workspace();
    expectError(await platform.api.patch(`/workspace/members/${added.body.data.user_id}`, stranger.key, { role: 'admin' }), 404, 'not_found');
    expectError(await platform.api.delete(`/workspace/members/${added.body.data.user_id}`, stranger.key), 404, 'not_found');
  });

  test('a malformed or unknown user id is 404 and changes nothing', async () => {
    const workspace = await platform.workspace();
    for (const id of ['not-a-uuid', "1' OR '1'='1", '6f1c1d7e-9a5b-4c1e-8f00-123456789abc']) {
      expectError(await platform.api.patch(`/workspace/members/${encodeURIComponent(id)}`, workspace.key, { role: 'admin' }), 404, 'not_found');
      expectError(await platform.api.delete(`/workspace/members/${encodeURIComponent(id)}`, workspace.key), 404, 'not_found');
    }
    expect((await platform.api.get('/workspace/members', workspace.key)).body.meta.pagination.total).toBe(0);
  });

  test('PATCH needs role or status', async () => {
    const workspace = await platform.workspace();
    const added = await platform.api.post('/workspace/members', workspace.key, { ...newUser(), role: 'member' });
    expectError(await platform.api.patch(`/workspace/members/${added.body.data.user_id}`, workspace.key, {}), 400, 'invalid_request');
  });

  test('the last owner cannot be removed, demoted or suspended (409)', async () => {
    const workspace = await platform.workspace();
    const owner = await addAcceptedMember(platform, workspace.key, { ...newUser(), role: 'owner' }, password);
    const id = owner.body.data.user_id;
    expectError(await platform.api.delete(`/workspace/members/${id}`, workspace.key), 409, 'conflict');
    expectError(await platform.api.patch(`/workspace/members/${id}`, workspace.key, { role: 'admin' }), 409, 'conflict');
    expectError(await platform.api.patch(`/workspace/members/${id}`, workspace.key, { status: 'suspended' }), 409, 'conflict');
    expect((await platform.api.get('/workspace/members', workspace.key)).body.data[0]).toMatchObject({ role: 'owner', status: 'active' });
  });
});

describe('revocation on the very next request', () => {
  test.each([
    ['removing the member', (id: string) => ['DELETE', `/workspace/members/${id}`, undefined] as const],
    ['demoting the member', (id: string) => ['PATCH', `/workspace/members/${id}`, { role: 'member' }] as const],
    ['suspending the member', (id: string) => ['PATCH', `/workspace/members/${id}`, { status: 'suspended' }] as const],
  ])('%s revokes its access and refresh tokens for that workspace', async (_case, change) => {
    const { workspace, userId, tokens } = await memberWithToken('admin');
    expect((await platform.api.get('/me', tokens.access_token)).status).toBe(200);
    const [method, path, body] = change(userId);
    expect((await platform.api.request(method, path, { key: workspace.key, body })).status).toBe(200);
    expectError(await platform.api.get('/me', tokens.access_token), 401, 'unauthorized');
    const refreshed = await refreshTokens(base, tokens);
    expect(refreshed.status).toBe(400);
    expect(((await refreshed.json()) as { error: string }).error).toBe('invalid_grant');
  });

  test('a service-account key the member created keeps working after the member is removed', async () => {
    const { workspace, userId, tokens } = await memberWithToken('admin', 'settings:write assistants:read');
    const created = await platform.api.post('/api-keys', tokens.access_token, { name: 'made by a human', scopes: ['assistants:read'] });
    expect(created.status).toBe(201);
    await platform.api.delete(`/workspace/members/${userId}`, workspace.key);
    expectError(await platform.api.get('/me', tokens.access_token), 401, 'unauthorized');
    expect((await platform.api.get('/tools', created.body.data.key)).status).toBe(200);
  });

  test("a change in one workspace leaves the user's tokens for another workspace alone", async () => {
    const first = await memberWithToken('admin');
    const second = await platform.workspace();
    await addAcceptedMember(platform, second.key, { email: first.user.email, role: 'admin' }, first.user.password);
    const otherTokens = await issueUserTokens(base, { ...first.user, workspaceId: second.id }, 'assistants:read');
    expect((await platform.api.get('/me', otherTokens.access_token)).body.data.workspace.id).toBe(second.id);
    await platform.api.delete(`/workspace/members/${first.userId}`, first.workspace.key);
    expectError(await platform.api.get('/me', first.tokens.access_token), 401, 'unauthorized');
    expect((await platform.api.get('/me', otherTokens.access_token)).status).toBe(200);
  });

  test('a member role narrows what a token may do (write implies read); promotion widens it again at once', async () => {
    const { workspace, userId, tokens } = await memberWithToken('member', 'settings:write assistants:read');
    expect([...(await platform.api.get('/me', tokens.access_token)).body.data.scopes].sort()).toEqual(['assistants:read', 'settings:read']);
    expect((await platform.api.get('/api-keys', tokens.access_token)).status).toBe(200);
    expectError(await platform.api.post('/api-keys', tokens.access_token, { name: 'x', scopes: ['assistants:read'] }), 403, 'forbidden');
    await platform.api.patch(`/workspace/members/${userId}`, workspace.key, { role: 'admin' });
    expect((await platform.api.post('/api-keys', tokens.access_token, { name: 'x', scopes: ['assistants:read'] })).status).toBe(201);
  });

  test('suspending the workspace revokes every credential of it: keys and tokens', async () => {
    const { workspace, tokens } = await memberWithToken('admin');
    const key = await platform.key(workspace.id, ['assistants:read']);
    expect((await platform.api.get('/tools', key)).status).toBe(200);
    const sessions = new Http2SessionManager(platform.running.services.identity);
    try {
      const identity = createClient(IdentityService, createConnectTransport({ baseUrl: platform.running.services.identity, httpVersion: '2', sessionManager: sessions }));
      const internal = { headers: callHeaders(platform.signer, { workspaceId: '', principal: { type: 'internal', id: 'e2e', name: 'e2e' }, scopes: null, requestId: 'e2e' }) };
      await identity.setWorkspaceStatus({ workspaceId: workspace.id, status: 'suspended' }, internal);
      for (const credential of [key, workspace.key, tokens.access_token]) expectError(await platform.api.get('/me', credential), 401, 'unauthorized');
      await identity.setWorkspaceStatus({ workspaceId: workspace.id, status: 'active' }, internal);
      expectError(await platform.api.get('/me', key), 401, 'unauthorized');
      // The root platform can never be suspended: its key could not be recreated.
      await expect(identity.setWorkspaceStatus({ workspaceId: platform.rootWorkspaceId, status: 'suspended' }, internal)).rejects.toMatchObject({ code: Code.FailedPrecondition });
      expect((await platform.api.get('/me', platform.rootKey)).status).toBe(200);
    } finally {
      sessions.abort();
    }
  });
});
