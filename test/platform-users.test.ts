// /platform/users through the gateway: registration, listing and search, detail, tokens, login,
// logout and suspension; who sees whom across platforms; scopes and the white_label gate.
import { canonicalScopes } from '@voice/runtime/access';
import { expectError, fieldsOf, type ApiResponse } from './support/api-client.js';
import { answerInvitation, invitationLinkTo } from './support/invitations.js';
import { refreshTokens } from './support/oauth.js';
import { startTestPlatform, uniqueEmail, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const password = 'correct horse battery';

/** A white-label platform (enterprise workspace) and a key with the platform scopes. */
const whiteLabel = () => platform.workspace({ plan: 'enterprise', scopes: ['platform:write', 'billing:read'] });

async function register(key: string, fields: Record<string, unknown> = {}): Promise<{ id: string; email: string; workspaceId: string }> {
  const email = uniqueEmail();
  const response = await platform.api.post('/platform/users', key, { email, name: 'Dana Customer', password, ...fields });
  expect(response.status).toBe(201);
  return { id: response.body.data.id, email: response.body.data.email, workspaceId: response.body.data.workspaces[0].id };
}

const login = (key: string, email: string, secret = password) => platform.api.post('/platform/users/login', key, { email, password: secret });
const me = (token: string) => platform.api.get('/me', token);

describe('registering with a preset password', () => {
  test('creates the user and a starter workspace under the platform, ready to sign in', async () => {
    const { key, id: platformId } = await whiteLabel();
    const email = uniqueEmail('Preset');
    const created = await platform.api.post('/platform/users', key, { email: `  ${email.toUpperCase()} `, name: 'Dana Customer', password });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: email.toLowerCase(),
      name: 'Dana Customer',
      status: 'active',
      invitation_status: 'none',
      created_at: expect.stringMatching(iso),
      workspaces: [{ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Dana Customer', plan: 'starter', status: 'active', role: 'owner' }],
    });
    expect(created.text).not.toContain(password);

    const signedIn = await login(key, email.toLowerCase());
    expect(signedIn.status).toBe(200);
    const workspaceId = created.body.data.workspaces[0].id;
    const whoami = await me(signedIn.body.data.access_token);
    expect(whoami.status).toBe(200);
    expect(whoami.body.data).toMatchObject({ principal: { type: 'user', id: created.body.data.id }, workspace: { id: workspaceId, plan: 'starter' } });
    expect(whoami.body.data.workspace.id).not.toBe(platformId);
  });

  test('a plan may be chosen; an unknown plan, bad e-mail, weak password or missing name is a 400 naming the field', async () => {
    const { key } = await whiteLabel();
    const pro = await platform.api.post('/platform/users', key, { email: uniqueEmail(), name: 'Pro Customer', password, plan: 'pro' });
    expect(pro.body.data.workspaces[0].plan).toBe('pro');

    const cases: [Record<string, unknown>, string][] = [
      [{ email: 'not-an-email', name: 'X', password }, 'email'],
      [{ email: uniqueEmail(), name: 'X', password: 'short' }, 'password'],
      [{ email: uniqueEmail(), name: 'X', password, plan: 'platinum' }, 'plan'],
      [{ email: uniqueEmail(), password }, 'name'],
      [{ email: uniqueEmail(), name: 'X', password, role: 'owner' }, 'role'],
      [{ email: 42, name: 'X', password }, 'email'],
    ];
    for (const [body, field] of cases) {
      const refused = await platform.api.post('/platform/users', key, body);
      expectError(refused, 400, 'invalid_request');
      expect(fieldsOf(refused)).toContain(field);
    }
    expect((await platform.api.get('/platform/users', key)).body.meta.pagination.total).toBe(1);
  });

  test('an e-mail already registered is invited to own the new workspace, never given the new password nor shown by its name; also when ten race', async () => {
    const { key } = await whiteLabel();
    const { id, email } = await register(key);
    const again = await platform.api.post('/platform/users', key, { email: email.toUpperCase(), name: 'Again', password: 'chosen by the platform' });
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ id, name: 'Again', invitation_status: 'pending' });
    expectError(await login(key, email, 'chosen by the platform'), 401, 'unauthorized');
    expect((await login(key, email)).status).toBe(200);
    // Not the owner of the second workspace until the user accepts, with their own password, through the e-mailed link.
    expect((await platform.api.get(`/platform/users/${id}`, key)).body.data).toMatchObject({ name: 'Dana Customer', workspaces: [expect.anything()] });
    const link = await invitationLinkTo(platform, email);
    expect(await (await fetch(`${platform.running.url}${link.pathname}`)).text()).toContain('Sign in as');
    expect((await answerInvitation(platform, link, 'chosen by the platform')).status).toBe(400);
    expect((await answerInvitation(platform, link, password)).status).toBe(200);
    expect((await platform.api.get(`/platform/users/${id}`, key)).body.data.workspaces).toHaveLength(2);

    const racing = uniqueEmail('race');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => platform.api.post('/platform/users', key, { email: racing, name: 'Racer', password })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((answer) => answer.body.data.id)).size).toBe(1);
    expect(answers.filter((answer) => answer.body.data.invitation_status === 'none')).toHaveLength(1);
    const listed = await platform.api.get(`/platform/users?q=${encodeURIComponent(racing)}`, key);
    expect(listed.body.meta.pagination.total).toBe(1);
    expect(listed.body.data[0].workspaces).toHaveLength(1);
  });
});

describe('listing and detail', () => {
  test('newest first, paginated with totals, searchable by e-mail or name (case-insensitive, % and _ literal)', async () => {
    const { key } = await whiteLabel();
    const names = ['Ada Lovelace', 'Grace Hopper', 'Alan 100% Turing', 'Edsger_Dijkstra'];
    const users = [];
    for (const name of names) users.push(await register(key, { name, email: uniqueEmail(name.split(' ')[0]!.toLowerCase().replace(/[^a-z]/g, '')) }));

    const all = await platform.api.get('/platform/users', key);
    expect(all.status).toBe(200);
    expect(all.body.meta.pagination).toEqual({ limit: 50, offset: 0, total: 4 });
    expect(all.body.data.map((user: { id: string }) => user.id)).toEqual(users.map((user) => user.id).reverse());

    const page = await platform.api.get('/platform/users?limit=2&offset=1', key);
    expect(page.body.meta.pagination).toEqual({ limit: 2, offset: 1, total: 4 });
    expect(page.body.data.map((user: { id: string }) => user.id)).toEqual([users[2]!.id, users[1]!.id]);

    const search = async (q: string) => (await platform.api.get(`/platform/users?q=${encodeURIComponent(q)}`, key)).body.data.map((u: { name: string }) => u.name);
    expect(await search('HOPPER')).toEqual(['Grace Hopper']);
    expect(await search('ada.')).toEqual(['Ada Lovelace']);
    expect(await search('%')).toEqual(['Alan 100% Turing']);
    expect(await search('_')).toEqual(['Edsger_Dijkstra']);
    expect(await search('nobody-matches')).toEqual([]);

    for (const query of ['limit=0', 'limit=201', 'offset=-1', 'limit=abc', `q=${'x'.repeat(201)}`, 'sort=name']) {
      expectError(await platform.api.get(`/platform/users?${query}`, key), 400, 'invalid_request');
    }
  });

  test('the detail lists the user’s workspaces with their balances', async () => {
    const { key, id: platformId } = await whiteLabel();
    await platform.fund(platformId, '50');
    const user = await register(key);
    expect((await platform.api.post(`/platform/users/${user.id}/balance`, key, { amount: '12.5' })).status).toBe(201);
    const detail = await platform.api.get(`/platform/users/${user.id}`, key);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({
      id: user.id,
      email: user.email,
      status: 'active',
      workspaces: [{ id: user.workspaceId, plan: 'starter', status: 'active', role: 'owner', balance: { credits: '12.5000', minutes: '0.000' } }],
    });
  });
});

describe('who sees whom', () => {
  test('a platform sees and manages only its own users; another platform’s user is 404 everywhere', async () => {
    const a = await whiteLabel();
    const b = await whiteLabel();
    const ours = await register(a.key);
    const theirs = await register(b.key);

    const listed = (await platform.api.get('/platform/users', a.key)).body.data.map((user: { id: string }) => user.id);
    expect(listed).toEqual([ours.id]);
    const attempts: (() => Promise<ApiResponse>)[] = [
      () => platform.api.get(`/platform/users/${theirs.id}`, a.key),
      () => platform.api.patch(`/platform/users/${theirs.id}`, a.key, { status: 'suspended' }),
      () => platform.api.post(`/platform/users/${theirs.id}/token`, a.key, {}),
      () => platform.api.post(`/platform/users/${theirs.id}/logout`, a.key, {}),
      () => platform.api.post(`/platform/users/${theirs.id}/balance`, a.key, { amount: '1' }),
      () => platform.api.get('/platform/users/not-a-uuid', a.key),
      () => platform.api.get('/platform/users/00000000-0000-4000-8000-000000000000', a.key),
    ];
    for (const attempt of attempts) expectError(await attempt(), 404, 'not_found');
    expectError(await login(a.key, theirs.email), 401, 'unauthorized');
    // Nothing happened to the other platform's user.
    expect((await platform.api.get(`/platform/users/${theirs.id}`, b.key)).body.data.status).toBe('active');
    expect((await login(b.key, theirs.email)).status).toBe(200);
  });

  test('the root platform admin sees only direct platform customers, not the customers of white-label platforms', async () => {
    const direct = await register(platform.rootKey);
    const reseller = await whiteLabel();
    const resold = await register(reseller.key);
    const rootList = (await platform.api.get('/platform/users?limit=200', platform.rootKey)).body.data.map((user: { id: string }) => user.id);
    expect(rootList).toContain(direct.id);
    expect(rootList).not.toContain(resold.id);
    expectError(await platform.api.get(`/platform/users/${resold.id}`, platform.rootKey), 404, 'not_found');
    expectError(await platform.api.get(`/platform/users/${direct.id}`, reseller.key), 404, 'not_found');
  });

  test('an enterprise customer is itself a white-label platform for its own users', async () => {
    const reseller = await whiteLabel();
    const customer = await register(reseller.key, { plan: 'enterprise' });
    const token = (await platform.api.post(`/platform/users/${customer.id}/token`, reseller.key, {})).body.data.access_token;
    const subUser = await register(token);
    expect((await platform.api.get('/platform/users', token)).body.data.map((user: { id: string }) => user.id)).toEqual([subUser.id]);
    expectError(await platform.api.get(`/platform/users/${subUser.id}`, reseller.key), 404, 'not_found');
  });
});

describe('scopes and the white_label feature', () => {
  test('platform:read lists and reads; every change needs platform:write; other scopes are 403', async () => {
    const { id, key } = await whiteLabel();
    const user = await register(key);
    const reader = await platform.key(id, ['platform:read']);
    expect((await platform.api.get('/platform/users', reader)).status).toBe(200);
    expect((await platform.api.get(`/platform/users/${user.id}`, reader)).status).toBe(200);
    const writes: (() => Promise<ApiResponse>)[] = [
      () => platform.api.post('/platform/users', reader, { email: uniqueEmail(), name: 'X', password }),
      () => platform.api.post(`/platform/users/${user.id}/token`, reader, {}),
      () => login(reader, user.email),
      () => platform.api.post(`/platform/users/${user.id}/logout`, reader, {}),
      () => platform.api.post(`/platform/users/${user.id}/balance`, reader, { amount: '1' }),
      () => platform.api.patch(`/platform/users/${user.id}`, reader, { status: 'suspended' }),
    ];
    for (const write of writes) expectError(await write(), 403, 'forbidden');
    const other = await platform.key(id, canonicalScopes.filter((scope) => !scope.startsWith('platform:')));
    expectError(await platform.api.get('/platform/users', other), 403, 'forbidden');
    expectError(await platform.api.get('/platform/users'), 401, 'unauthorized');
  });

  test('a workspace without white_label (pro) is 403 even with platform scopes', async () => {
    const pro = await platform.workspace({ plan: 'pro', scopes: ['platform:write'] });
    expectError(await platform.api.get('/platform/users', pro.key), 403, 'forbidden');
    expectError(await platform.api.post('/platform/users', pro.key, { email: uniqueEmail(), name: 'X', password }), 403, 'forbidden');
  });

  test('unsupported methods are 405 with Allow; unknown fields are 400', async () => {
    const { key } = await whiteLabel();
    const user = await register(key);
    const put = await platform.api.request('PUT', `/platform/users/${user.id}`, { key, body: {} });
    expectError(put, 405, 'invalid_request');
    expect(put.headers.get('allow')).toContain('PATCH');
    expectError(await platform.api.post(`/platform/users/${user.id}/token`, key, { scopes: ['x'] }), 400, 'invalid_request');
    expectError(await platform.api.patch(`/platform/users/${user.id}`, key, { status: 'deleted' }), 400, 'invalid_request');
  });
});

describe('tokens, login and logout', () => {
  test('a token is issued without a password, acts as the owner, and refreshes at the token endpoint', async () => {
    const { key } = await whiteLabel();
    const user = await register(key);
    const issued = await platform.api.post(`/platform/users/${user.id}/token`, key, {});
    expect(issued.status).toBe(201);
    expect(issued.headers.get('cache-control')).toBe('no-store');
    expect(issued.body.data).toEqual({
      access_token: expect.stringMatching(/^svc_at_/),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.any(String),
      user_id: user.id,
      workspace_id: user.workspaceId,
      client_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const whoami = await me(issued.body.data.access_token);
    expect(whoami.body.data).toMatchObject({ principal: { type: 'user', id: user.id }, workspace: { id: user.workspaceId } });
    // The owner may create keys in its workspace with that token.
    expect((await platform.api.post('/api-keys', issued.body.data.access_token, { name: 'mine', scopes: ['billing:read'] })).status).toBe(201);

    const refreshed = await refreshTokens(platform.running.url, issued.body.data);
    expect(refreshed.status).toBe(200);
    const rotated = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect(rotated.refresh_token).not.toBe(issued.body.data.refresh_token);
    expect((await me(rotated.access_token)).status).toBe(200);
  });

  test('login refuses a wrong password, an unknown e-mail and another platform’s user alike', async () => {
    const { key } = await whiteLabel();
    const user = await register(key);
    const wrong = await login(key, user.email, 'wrong password!');
    const unknown = await login(key, uniqueEmail('nobody'));
    expectError(wrong, 401, 'unauthorized');
    expectError(unknown, 401, 'unauthorized');
    expect(wrong.body.error.message).toBe(unknown.body.error.message);
    expectError(await platform.api.post('/platform/users/login', key, { email: user.email }), 400, 'invalid_request');
    const ok = await login(key, ` ${user.email.toUpperCase()} `);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ token_type: 'Bearer', expires_in: 3600, user_id: user.id, workspace_id: user.workspaceId });
  });

  test('logout revokes every token of the user; API keys the user created keep working', async () => {
    const { key } = await whiteLabel();
    const user = await register(key);
    const first = (await login(key, user.email)).body.data;
    const second = (await platform.api.post(`/platform/users/${user.id}/token`, key, {})).body.data;
    const userKey = (await platform.api.post('/api-keys', first.access_token, { name: 'server', scopes: ['billing:read'] })).body.data.key;
    expect((await me(first.access_token)).status).toBe(200);

    const out = await platform.api.post(`/platform/users/${user.id}/logout`, key, {});
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({ user_id: user.id, revoked_tokens: 4 });
    expectError(await me(first.access_token), 401, 'unauthorized');
    expectError(await me(second.access_token), 401, 'unauthorized');
    const refresh = await refreshTokens(platform.running.url, second);
    expect(refresh.status).toBe(400);
    // A service-account key depends only on itself (SPEC.md 5 rule 6).
    expect((await me(userKey)).status).toBe(200);
    expect((await platform.api.post(`/platform/users/${user.id}/logout`, key, {})).body.data.revoked_tokens).toBe(0);
  });
});

describe('suspension', () => {
  test('suspending revokes every credential of the user’s workspace; reactivating revives none of them', async () => {
    const { key } = await whiteLabel();
    const user = await register(key);
    const token = (await login(key, user.email)).body.data.access_token;
    const userKey = (await platform.api.post('/api-keys', token, { name: 'server', scopes: ['billing:read'] })).body.data.key;

    const suspended = await platform.api.patch(`/platform/users/${user.id}`, key, { status: 'suspended' });
    expect(suspended.status).toBe(200);
    expect(suspended.body.data).toMatchObject({ status: 'suspended', workspaces: [{ id: user.workspaceId, status: 'suspended' }] });
    expectError(await me(token), 401, 'unauthorized');
    expectError(await me(userKey), 401, 'unauthorized');
    expectError(await login(key, user.email), 409, 'conflict');
    expectError(await platform.api.post(`/platform/users/${user.id}/token`, key, {}), 409, 'conflict');
    expect((await platform.api.get(`/platform/users?q=${encodeURIComponent(user.email)}`, key)).body.data[0].status).toBe('suspended');

    const active = await platform.api.patch(`/platform/users/${user.id}`, key, { status: 'active' });
    expect(active.body.data).toMatchObject({ status: 'active', workspaces: [{ status: 'active' }] });
    expectError(await me(token), 401, 'unauthorized');
    expectError(await me(userKey), 401, 'unauthorized');
    const fresh = await login(key, user.email);
    expect(fresh.status).toBe(200);
    expect((await me(fresh.body.data.access_token)).status).toBe(200);
  });
});
