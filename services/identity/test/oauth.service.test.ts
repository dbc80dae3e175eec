// The OAuth 2.0 server's state over the router transport: CheckAuthorizationRequest,
// IssueAuthorizationCode, the code exchange with PKCE, refresh rotation with replay detection,
// RFC 7009 revocation, and Authenticate of the access tokens it issues.
import { Code } from '@connectrpc/connect';
import { sha256Hex } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import type { CheckAuthorizationRequestRequest, Member, OAuthClient } from '@voice/proto/voice/identity/v1/identity';
import { failure, pkce, publicClient, redirectUri, setup, tokensFor, type Harness } from './harness.js';

let h: Harness;
let workspaceId: string;
let owner: Member;
let member: Member;
let app: OAuthClient;

beforeEach(async () => {
  h = await setup();
  workspaceId = (await h.newWorkspace()).id;
  owner = await h.addMember(workspaceId, 'owner', { name: 'Olive Owner' });
  member = await h.addMember(workspaceId, 'member', { name: 'Max Member' });
  app = await publicClient(h, [redirectUri, 'http://127.0.0.1/callback', 'http://[::1]:9000/callback']);
});
afterEach(async () => {
  await h.store.close();
});

const trustOf = (refused: { fields: { field: string; issue: string }[] }) => refused.fields.find((f) => f.field === 'redirect_uri_trusted')?.issue;

type CheckFields = Partial<Omit<CheckAuthorizationRequestRequest, '$typeName' | '$unknown'>>;

function check(fields: CheckFields = {}) {
  return h.client.checkAuthorizationRequest(
    { clientId: app.clientId, redirectUri, responseType: 'code', codeChallengeMethod: 'S256', codeChallenge: pkce().challenge, scope: '', ...fields },
    h.gateway,
  );
}

function issue(fields: { clientId?: string; userId?: string; redirectUri?: string; scopes?: string[]; codeChallenge?: string; resource?: string } = {}) {
  return h.client.issueAuthorizationCode(
    {
      clientId: app.clientId,
      userId: owner.userId,
      workspaceId,
      redirectUri,
      scopes: ['calls:read'],
      codeChallenge: pkce().challenge,
      resource: '',
      ...fields,
    },
    h.gateway,
  );
}

describe('CheckAuthorizationRequest', () => {
  test('answers the client, the requested scopes and that errors may go to redirect_uri', async () => {
    const answer = await check({ scope: 'calls:read assistants:write' });
    expect(answer).toMatchObject({ scopes: ['calls:read', 'assistants:write'], redirectUriTrusted: true, client: { clientId: app.clientId } });
  });

  test('an empty scope asks for the client’s registered scopes', async () => {
    const narrow = (await h.client.registerClient({ redirectUris: [redirectUri], tokenEndpointAuthMethod: 'none', scope: 'calls:read leads:write' }, h.gateway)).client!;
    expect((await check({ clientId: narrow.clientId })).scopes).toEqual(['calls:read', 'leads:write']);
  });

  test('a loopback redirect URI matches on any port; everything else must match exactly', async () => {
    for (const uri of ['http://127.0.0.1:51234/callback', 'http://127.0.0.1/callback', 'http://[::1]/callback', 'http://[::1]:1/callback', redirectUri]) {
      expect((await check({ redirectUri: uri })).redirectUriTrusted).toBe(true);
    }
    for (const uri of [
      'http://127.0.0.1:5000/other',
      'http://127.0.0.1:5000/callback?x=1',
      'https://127.0.0.1:5000/callback',
      'http://localhost:5000/callback',
      `${redirectUri}/`,
      `${redirectUri}?x=1`,
      `${redirectUri}#x`,
      'https://app.example:8443/callback',
      'https://evil.example/callback',
    ]) {
      const refused = await failure(check({ redirectUri: uri }));
      expect(refused).toMatchObject({ code: Code.InvalidArgument, reason: 'invalid_request', oauthError: 'invalid_request' });
      expect(trustOf(refused)).toBe('false');
    }
  });

  test('client and redirect_uri problems must be shown on the page (redirect_uri_trusted false)', async () => {
    const cases: [CheckFields, string][] = [
      [{ clientId: newId() }, 'invalid_client'],
      [{ clientId: 'not-a-client' }, 'invalid_client'],
      [{ clientId: 'http://app.example/client.json' }, 'invalid_client'],
      [{ clientId: '' }, 'invalid_request'],
      [{ redirectUri: '' }, 'invalid_request'],
      [{ redirectUri: 'https://evil.example/cb' }, 'invalid_request'],
    ];
    for (const [fields, oauthError] of cases) {
      const refused = await failure(check({ ...fields, responseType: 'token' }));
      expect(refused).toMatchObject({ code: Code.InvalidArgument, reason: 'invalid_request', oauthError });
      expect(refused.fields).toEqual([{ field: 'redirect_uri_trusted', issue: 'false' }]);
    }
  });

  test('with a good client and redirect_uri, errors may be sent to it (redirect_uri_trusted true)', async () => {
    const { challenge } = pkce();
    const cases: [CheckFields, string][] = [
      [{ responseType: 'token' }, 'unsupported_response_type'],
      [{ responseType: '' }, 'invalid_request'],
      [{ codeChallengeMethod: 'plain', codeChallenge: 'a'.repeat(43) }, 'invalid_request'],
      [{ codeChallengeMethod: '' }, 'invalid_request'],
      [{ codeChallengeMethod: 's256' }, 'invalid_request'],
      [{ codeChallenge: '' }, 'invalid_request'],
      [{ codeChallenge: challenge.slice(0, 42) }, 'invalid_request'],
      [{ codeChallenge: `${challenge.slice(0, 42)}+` }, 'invalid_request'],
      // 43 base64url characters whose last one carries bits beyond 32 bytes: no SHA-256.
      [{ codeChallenge: `${challenge.slice(0, 42)}B` }, 'invalid_request'],
      [{ scope: 'calls:read everything' }, 'invalid_scope'],
    ];
    for (const [fields, oauthError] of cases) {
      const refused = await failure(check(fields));
      expect([fields, refused]).toMatchObject([fields, { code: Code.InvalidArgument, reason: 'invalid_request', oauthError }]);
      expect(refused.fields).toEqual([{ field: 'redirect_uri_trusted', issue: 'true' }]);
    }
  });

  test('scopes beyond the client’s registration are invalid_scope', async () => {
    const narrow = (await h.client.registerClient({ redirectUris: [redirectUri], tokenEndpointAuthMethod: 'none', scope: 'calls:read' }, h.gateway)).client!;
    const refused = await failure(check({ clientId: narrow.clientId, scope: 'calls:read calls:write' }));
    expect(refused).toMatchObject({ oauthError: 'invalid_scope', fields: [{ field: 'redirect_uri_trusted', issue: 'true' }] });
  });

  test('is for platform services only', async () => {
    const refused = await failure(
      h.client.checkAuthorizationRequest({ clientId: app.clientId, redirectUri, responseType: 'code' }, h.asUser(workspaceId, owner.userId)),
    );
    expect(refused.code).toBe(Code.PermissionDenied);
  });
});

describe('IssueAuthorizationCode', () => {
  test('issues a code of 43 base62 characters after svc_ac_, stored only as a hash, bound to the request', async () => {
    const { challenge } = pkce();
    const { code } = await issue({ scopes: ['calls:read', 'leads:write'], codeChallenge: challenge, resource: 'https://api.example/mcp' });
    expect(code).toMatch(/^svc_ac_[0-9A-Za-z]{43}$/);
    expect(await h.store.findAuthorizationCode(sha256Hex(code))).toMatchObject({
      clientId: app.clientId,
      userId: owner.userId,
      workspaceId,
      redirectUri,
      scopes: ['calls:read', 'leads:write'],
      codeChallenge: challenge,
      resource: 'https://api.example/mcp',
      status: 'issued',
    });
  });

  test('keeps the redirect_uri as requested, port included', async () => {
    const { code } = await issue({ redirectUri: 'http://127.0.0.1:43210/callback' });
    expect((await h.store.findAuthorizationCode(sha256Hex(code)))?.redirectUri).toBe('http://127.0.0.1:43210/callback');
  });

  test('checks membership and the request again', async () => {
    const other = await h.newWorkspace('Other');
    const stranger = await h.addMember(other.id, 'owner');
    const suspended = await h.addMember(workspaceId, 'member');
    await h.client.updateMember({ userId: suspended.userId, status: 'suspended' }, h.serviceAccount(workspaceId));
    for (const userId of [stranger.userId, suspended.userId, newId(), 'nope']) {
      expect(await failure(issue({ userId }))).toMatchObject({ code: Code.InvalidArgument, oauthError: 'access_denied' });
    }
    expect(await failure(issue({ redirectUri: 'https://evil.example/cb' }))).toMatchObject({ oauthError: 'invalid_request' });
    expect(await failure(issue({ clientId: newId() }))).toMatchObject({ oauthError: 'invalid_client' });
    expect(await failure(issue({ scopes: [] }))).toMatchObject({ oauthError: 'invalid_scope' });
    expect(await failure(issue({ scopes: ['calls:read', 'root'] }))).toMatchObject({ oauthError: 'invalid_scope' });
    expect(await failure(issue({ codeChallenge: 'plain-text' }))).toMatchObject({ oauthError: 'invalid_request' });
    expect(await failure(issue({ resource: 'not a uri' }))).toMatchObject({ oauthError: 'invalid_target' });
    await h.client.setWorkspaceStatus({ workspaceId, status: 'suspended' }, h.gateway);
    expect(await failure(issue())).toMatchObject({ oauthError: 'access_denied' });
  });

  test('is for platform services only', async () => {
    const refused = await failure(
      h.client.issueAuthorizationCode({ clientId: app.clientId, userId: owner.userId, workspaceId, redirectUri, scopes: ['calls:read'] }, h.asUser(workspaceId, owner.userId)),
    );
    expect(refused.code).toBe(Code.PermissionDenied);
  });
});

describe('ExchangeAuthorizationCode', () => {
  async function codeFor(fields: Parameters<typeof issue>[0] = {}) {
    const { verifier, challenge } = pkce();
    const { code } = await issue({ codeChallenge: challenge, ...fields });
    return { code, verifier };
  }

  const exchange = (fields: { clientId?: string; clientSecret?: string; code: string; redirectUri?: string; codeVerifier: string; resource?: string }) =>
    h.client.exchangeAuthorizationCode({ clientId: app.clientId, redirectUri, ...fields }, h.gateway);

  test('issues a Bearer access token for an hour and a refresh token, both stored only as hashes', async () => {
    const { code, verifier } = await codeFor({ scopes: ['calls:read', 'settings:write'] });
    const { tokens } = await exchange({ code, codeVerifier: verifier });
    expect(tokens).toMatchObject({ tokenType: 'Bearer', expiresIn: 3600, scopes: ['calls:read', 'settings:write'] });
    expect(tokens?.accessToken).toMatch(/^svc_at_[0-9A-Za-z]{43}$/);
    expect(tokens?.refreshToken).toMatch(/^svc_rt_[0-9A-Za-z]{43}$/);
    const access = await h.store.findToken(sha256Hex(tokens!.accessToken));
    const refresh = await h.store.findToken(sha256Hex(tokens!.refreshToken));
    expect(access).toMatchObject({ kind: 'access', clientId: app.clientId, userId: owner.userId, workspaceId, status: 'active' });
    expect(refresh).toMatchObject({ kind: 'refresh', grantId: access!.grantId });
    expect(Date.parse(refresh!.expiresAt) - Date.parse(access!.expiresAt)).toBeGreaterThan(29 * 24 * 3600 * 1000);
    expect(await h.store.getGrant(access!.grantId)).toMatchObject({ clientId: app.clientId, userId: owner.userId, workspaceId, scopes: ['calls:read', 'settings:write'], status: 'active' });
  });

  test('the answered scopes are those the member’s role allows', async () => {
    const { code, verifier } = await codeFor({ userId: member.userId, scopes: ['calls:read', 'settings:write', 'billing:write'] });
    expect((await exchange({ code, codeVerifier: verifier })).tokens?.scopes).toEqual(['calls:read', 'settings:read', 'billing:read']);
  });

  test('PKCE: a wrong, missing or malformed verifier is invalid_grant', async () => {
    const { code, verifier } = await codeFor();
    for (const codeVerifier of [pkce().verifier, '', verifier.slice(0, 42), `${verifier}!`, verifier.toUpperCase()]) {
      expect(await failure(exchange({ code, codeVerifier }))).toMatchObject({ code: Code.InvalidArgument, reason: 'invalid_request', oauthError: 'invalid_grant' });
    }
    // The failures did not use up the code.
    expect((await exchange({ code, codeVerifier: verifier })).tokens?.accessToken).toMatch(/^svc_at_/);
  });

  test('the code is bound to its client and its exact redirect_uri, and lives 60 seconds', async () => {
    const other = await publicClient(h);
    const { code, verifier } = await codeFor({ redirectUri: 'http://127.0.0.1:43210/callback' });
    for (const fields of [{ clientId: other.clientId }, { redirectUri: 'http://127.0.0.1:43211/callback' }, { redirectUri }]) {
      expect(await failure(exchange({ code, codeVerifier: verifier, ...fields }))).toMatchObject({ oauthError: 'invalid_grant' });
    }
    h.clock.advance(60_001);
    expect(await failure(exchange({ code, codeVerifier: verifier, redirectUri: 'http://127.0.0.1:43210/callback' }))).toMatchObject({ oauthError: 'invalid_grant' });
    for (const unknown of ['', 'svc_ac_unknown', 'x'.repeat(600)]) {
      expect(await failure(exchange({ code: unknown, codeVerifier: verifier }))).toMatchObject({ oauthError: 'invalid_grant' });
    }
  });

  test('a resource, if sent, must be the one the code was issued for (invalid_target)', async () => {
    const { code, verifier } = await codeFor({ resource: 'https://api.example/mcp' });
    expect(await failure(exchange({ code, codeVerifier: verifier, resource: 'https://api.example/other' }))).toMatchObject({ oauthError: 'invalid_target' });
    expect((await exchange({ code, codeVerifier: verifier, resource: 'https://api.example/mcp' })).tokens).toBeDefined();
  });

  test('a second use of a code is invalid_grant and revokes everything issued from it, announced', async () => {
    const { code, verifier } = await codeFor();
    const { tokens } = await exchange({ code, codeVerifier: verifier });
    const auth = await h.client.authenticate({ credential: tokens!.accessToken }, h.gateway);
    h.notices.length = 0;
    expect(await failure(exchange({ code, codeVerifier: verifier }))).toMatchObject({ oauthError: 'invalid_grant' });
    expect(h.notices).toHaveLength(1);
    expect(h.notices[0]!.credentialIds).toContain(auth.credentialId);
    expect((await failure(h.client.authenticate({ credential: tokens!.accessToken }, h.gateway))).code).toBe(Code.Unauthenticated);
    expect(await failure(h.client.refreshAccessToken({ clientId: app.clientId, refreshToken: tokens!.refreshToken }, h.gateway))).toMatchObject({ oauthError: 'invalid_grant' });
  });

  test('of concurrent exchanges of one code exactly one gets tokens', async () => {
    const { code, verifier } = await codeFor();
    const outcomes = await Promise.allSettled(Array.from({ length: 4 }, () => exchange({ code, codeVerifier: verifier })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
  });

  test('a member who is no longer active, or a suspended workspace, gets no tokens', async () => {
    const { code, verifier } = await codeFor({ userId: member.userId });
    await h.client.updateMember({ userId: member.userId, status: 'suspended' }, h.serviceAccount(workspaceId));
    expect(await failure(exchange({ code, codeVerifier: verifier }))).toMatchObject({ oauthError: 'invalid_grant' });
    const second = await codeFor();
    await h.store.setWorkspaceStatus(workspaceId, 'suspended');
    await h.store.setWorkspaceStatus(workspaceId, 'active');
    expect(await failure(exchange({ code: second.code, codeVerifier: second.verifier }))).toMatchObject({ oauthError: 'invalid_grant' });
  });

  test('a client registered without refresh_token gets no refresh token', async () => {
    const once = (await h.client.registerClient({ redirectUris: [redirectUri], tokenEndpointAuthMethod: 'none', grantTypes: ['authorization_code'] }, h.gateway)).client!;
    const tokens = await tokensFor(h, { workspaceId, userId: owner.userId }, ['calls:read'], once.clientId);
    expect(tokens.refreshToken).toBe('');
    expect(await failure(h.client.refreshAccessToken({ clientId: once.clientId, refreshToken: 'svc_rt_x' }, h.gateway))).toMatchObject({
      oauthError: 'unauthorized_client',
    });
  });

  test('is for platform services only', async () => {
    const { code, verifier } = await codeFor();
    expect((await failure(h.client.exchangeAuthorizationCode({ clientId: app.clientId, code, redirectUri, codeVerifier: verifier }, h.serviceAccount(workspaceId)))).code).toBe(
      Code.PermissionDenied,
    );
  });
});

describe('client authentication', () => {
  test('a confidential client must present its secret; a public client must not present one', async () => {
    const { client: confidential, clientSecret } = await h.client.registerClient({ redirectUris: [redirectUri] }, h.gateway);
    const grant = async (clientSecret: string, clientId = confidential!.clientId) => {
      const { verifier, challenge } = pkce();
      const { code } = await issue({ clientId, codeChallenge: challenge });
      return h.client.exchangeAuthorizationCode({ clientId, clientSecret, code, redirectUri, codeVerifier: verifier }, h.gateway);
    };
    const invalidClient = { code: Code.Unauthenticated, reason: 'unauthorized', oauthError: 'invalid_client' };
    expect(await failure(grant(''))).toMatchObject(invalidClient);
    // Another last character (a secret ending in x would otherwise be tried as itself, 1 run in 62).
    expect(await failure(grant(`${clientSecret.slice(0, -1)}${clientSecret.endsWith('x') ? 'y' : 'x'}`))).toMatchObject(invalidClient);
    expect((await grant(clientSecret)).tokens?.accessToken).toMatch(/^svc_at_/);
    expect(await failure(grant('svc_cs_anything', app.clientId))).toMatchObject(invalidClient);
    for (const clientId of ['', newId(), 'nope']) {
      expect(await failure(h.client.exchangeAuthorizationCode({ clientId, code: 'svc_ac_x', redirectUri, codeVerifier: pkce().verifier }, h.gateway))).toMatchObject(invalidClient);
    }
  });
});

describe('RefreshAccessToken', () => {
  const refresh = (refreshToken: string, fields: { clientId?: string; clientSecret?: string; scope?: string } = {}) =>
    h.client.refreshAccessToken({ clientId: app.clientId, refreshToken, ...fields }, h.gateway);

  test('rotates: a new access and refresh token in the same grant; the old refresh token is used up', async () => {
    const first = await tokensFor(h, { workspaceId, userId: owner.userId }, ['calls:read', 'leads:write'], app.clientId);
    const { tokens } = await refresh(first.refreshToken);
    expect(tokens).toMatchObject({ tokenType: 'Bearer', expiresIn: 3600, scopes: ['calls:read', 'leads:write'] });
    expect(tokens?.accessToken).not.toBe(first.accessToken);
    expect(tokens?.refreshToken).toMatch(/^svc_rt_/);
    expect(tokens?.refreshToken).not.toBe(first.refreshToken);
    const old = await h.store.findToken(sha256Hex(first.refreshToken));
    expect(old?.status).toBe('used');
    expect((await h.store.findToken(sha256Hex(tokens!.refreshToken)))?.grantId).toBe(old?.grantId);
    expect((await h.client.authenticate({ credential: tokens!.accessToken }, h.gateway)).principal?.id).toBe(owner.userId);
    // The rotated pair refreshes again.
    expect((await refresh(tokens!.refreshToken)).tokens?.refreshToken).toMatch(/^svc_rt_/);
  });

  test('replaying a used refresh token is invalid_grant and revokes every token of the grant, announced', async () => {
    const first = await tokensFor(h, { workspaceId, userId: owner.userId }, ['calls:read'], app.clientId);
    const { tokens } = await refresh(first.refreshToken);
    const current = await h.client.authenticate({ credential: tokens!.accessToken }, h.gateway);
    h.notices.length = 0;
    expect(await failure(refresh(first.refreshToken))).toMatchObject({ code: Code.InvalidArgument, oauthError: 'invalid_grant' });
    expect(h.notices).toHaveLength(1);
    expect(h.notices[0]!.credentialIds).toContain(current.credentialId);
    for (const credential of [tokens!.accessToken, first.accessToken]) {
      expect((await failure(h.client.authenticate({ credential }, h.gateway))).code).toBe(Code.Unauthenticated);
    }
    expect(await failure(refresh(tokens!.refreshToken))).toMatchObject({ oauthError: 'invalid_grant' });
  });

  test('of concurrent refreshes of one token at most one succeeds, and the grant does not survive the race', async () => {
    const first = await tokensFor(h, { workspaceId, userId: owner.userId }, ['calls:read'], app.clientId);
    const outcomes = await Promise.allSettled(Array.from({ length: 3 }, () => refresh(first.refreshToken)));
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    const winner = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof refresh>>>).value.tokens!;
    expect((await failure(h.client.authenticate({ credential: winner.accessToken }, h.gateway))).code).toBe(Code.Unauthenticated);
  });

  test('scope may narrow to a subset of the grant, never widen', async () => {
    const first = await tokensFor(h, { workspaceId, userId: owner.userId }, ['calls:read', 'leads:write'], app.clientId);
    const narrowed = (await refresh(first.refreshToken, { scope: 'calls:read' })).tokens!;
    expect(narrowed.scopes).toEqual(['calls:read']);
    expect((await h.client.authenticate({ credential: narrowed.accessToken }, h.gateway)).scopes).toEqual(['calls:read']);
    // The refresh token keeps the whole grant.
    expect((await refresh(narrowed.refreshToken)).tokens?.scopes).toEqual(['calls:read', 'leads:write']);
    const latest = await tokensFor(h, { workspaceId, userId: owner.userId }, ['calls:read'], app.clientId);
    for (const scope of ['calls:read leads:write', 'calls:write', 'everything']) {
      expect(await failure(refresh(latest.refreshToken, { scope }))).toMatchObject({ oauthError: 'invalid_scope' });
    }
  });

  test('a refresh token is bound to its client, expires after 30 days, and is never an access token', async () => {
    const other = await publicClient(h);
    const first = await tokensFor(h, { workspaceId, userId: owner.userId }, ['calls:read'], app.clientId);
    expect(await failure(refresh(first.refreshToken, { clientId: other.clientId }))).toMatchObject({ oauthError: 'invalid_grant' });
    expect(await failure(refresh(first.accessToken))).toMatchObject({ oauthError: 'invalid_grant' });
    expect(await failure(refresh('svc_rt_unknown'))).toMatchObject({ oauthError: 'invalid_grant' });
    h.clock.advance(30 * 24 * 3600 * 1000 + 1000);
    expect(await failure(refresh(first.refreshToken))).toMatchObject({ oauthError: 'invalid_grant' });
  });

  test('a suspended workspace refreshes nothing, even once active again', async () => {
    const first = await tokensFor(h, { workspaceId, userId: owner.userId }, ['calls:read'], app.clientId);
    await h.client.setWorkspaceStatus({ workspaceId, status: 'suspended' }, h.gateway);
    expect(await failure(refresh(first.refreshToken))).toMatchObject({ oauthError: 'invalid_grant' });
    await h.client.setWorkspaceStatus({ workspaceId, status: 'active' }, h.gateway);
    expect(await failure(refresh(first.refreshToken))).toMatchObject({ oauthError: 'invalid_grant' });
  });
});

describe('Authenticate with an access token', () => {
  test('answers the user, its workspace and the token’s scopes within the member’s role', async () => {
    const tokens = await tokensFor(h, { workspaceId, userId: member.userId }, ['calls:read', 'calls:write', 'settings:write', 'billing:read'], app.clientId);
    const auth = await h.client.authenticate({ credential: tokens.accessToken }, h.gateway);
    expect(auth).toMatchObject({
      principal: { type: 'user', id: member.userId, name: 'Max Member' },
      workspace: { id: workspaceId, status: 'active' },
      unrestricted: false,
      // settings:write is beyond a member; the settings:read it implies is not.
      scopes: ['calls:read', 'calls:write', 'settings:read', 'billing:read'],
      cacheTtlSeconds: 60,
    });
    expect(auth.credentialId).toBe((await h.store.findToken(sha256Hex(tokens.accessToken)))?.id);
  });

  test('a role change applies at once: a promotion widens what the token can do', async () => {
    const tokens = await tokensFor(h, { workspaceId, userId: member.userId }, ['calls:read', 'settings:write'], app.clientId);
    expect((await h.client.authenticate({ credential: tokens.accessToken }, h.gateway)).scopes).toEqual(['calls:read', 'settings:read']);
    await h.client.updateMember({ userId: member.userId, role: 'admin' }, h.serviceAccount(workspaceId));
    expect((await h.client.authenticate({ credential: tokens.accessToken }, h.gateway)).scopes).toEqual(['calls:read', 'settings:write']);
  });

  test('the answer is kept at most until the token expires, and an expired token is refused', async () => {
    const tokens = await tokensFor(h, { workspaceId, userId: owner.userId }, ['calls:read'], app.clientId);
    h.clock.advance(3590_000);
    const late = await h.client.authenticate({ credential: tokens.accessToken }, h.gateway);
    expect(late.cacheTtlSeconds).toBeLessThanOrEqual(10);
    expect(late.cacheTtlSeconds).toBeGreaterThanOrEqual(9);
    h.clock.advance(10_000);
    expect((await failure(h.client.authenticate({ credential: tokens.accessToken }, h.gateway))).code).toBe(Code.Unauthenticated);
  });

  test('refresh tokens, codes and client secrets never authenticate', async () => {
    const tokens = await tokensFor(h, { workspaceId, userId: owner.userId }, ['calls:read'], app.clientId);
    const { code } = await issue();
    const { clientSecret } = await h.client.registerClient({ redirectUris: [redirectUri] }, h.gateway);
    for (const credential of [tokens.refreshToken, code, clientSecret, `${tokens.accessToken}x`, 'svc_at_']) {
      expect((await failure(h.client.authenticate({ credential }, h.gateway))).code).toBe(Code.Unauthenticated);
    }
  });

  test('suspending the workspace revokes its tokens along with its keys, announced with the workspace', async () => {
    const tokens = await tokensFor(h, { workspaceId, userId: owner.userId }, ['calls:read'], app.clientId);
    const auth = await h.client.authenticate({ credential: tokens.accessToken }, h.gateway);
    const key = await h.client.createApiKey({ name: 'ci', scopes: ['calls:read'] }, h.serviceAccount(workspaceId));
    h.notices.length = 0;
    await h.client.setWorkspaceStatus({ workspaceId, status: 'suspended' }, h.gateway);
    expect(h.notices).toHaveLength(1);
    expect(h.notices[0]!.workspaceId).toBe(workspaceId);
    expect([...h.notices[0]!.credentialIds].sort()).toEqual(
      [key.apiKey!.id, auth.credentialId, (await h.store.findToken(sha256Hex(tokens.refreshToken)))!.id].sort(),
    );
    await h.client.setWorkspaceStatus({ workspaceId, status: 'active' }, h.gateway);
    for (const credential of [tokens.accessToken, key.key]) {
      expect((await failure(h.client.authenticate({ credential }, h.gateway))).code).toBe(Code.Unauthenticated);
    }
  });
});

describe('RevokeToken', () => {
  const revoke = (token: string, fields: { clientId?: string; clientSecret?: string } = {}) =>
    h.client.revokeToken({ token, clientId: app.clientId, ...fields }, h.gateway);

  test('revoking an access token ends it alone, announced', async () => {
    const tokens = await tokensFor(h, { workspaceId, userId: owner.userId }, ['calls:read'], app.clientId);
    const auth = await h.client.authenticate({ credential: tokens.accessToken }, h.gateway);
    h.notices.length = 0;
    await revoke(tokens.accessToken);
    expect(h.notices.map((n) => n.credentialIds)).toEqual([[auth.credentialId]]);
    expect((await failure(h.client.authenticate({ credential: tokens.accessToken }, h.gateway))).code).toBe(Code.Unauthenticated);
    expect((await h.client.refreshAccessToken({ clientId: app.clientId, refreshToken: tokens.refreshToken }, h.gateway)).tokens).toBeDefined();
  });

  test('revoking a refresh token ends its whole grant', async () => {
    const tokens = await tokensFor(h, { workspaceId, userId: owner.userId }, ['calls:read'], app.clientId);
    await revoke(tokens.refreshToken);
    expect((await failure(h.client.authenticate({ credential: tokens.accessToken }, h.gateway))).code).toBe(Code.Unauthenticated);
    expect(await failure(h.client.refreshAccessToken({ clientId: app.clientId, refreshToken: tokens.refreshToken }, h.gateway))).toMatchObject({ oauthError: 'invalid_grant' });
  });

  test('unknown tokens, API keys and other clients’ tokens succeed without effect', async () => {
    const other = await publicClient(h);
    const tokens = await tokensFor(h, { workspaceId, userId: owner.userId }, ['calls:read'], app.clientId);
    const key = await h.client.createApiKey({ name: 'ci', scopes: ['calls:read'] }, h.serviceAccount(workspaceId));
    h.notices.length = 0;
    for (const token of ['svc_at_unknown', 'svc_rt_unknown', '', 'garbage', key.key]) await revoke(token);
    await revoke(tokens.accessToken, { clientId: other.clientId });
    expect(h.notices).toEqual([]);
    expect((await h.client.authenticate({ credential: tokens.accessToken }, h.gateway)).principal?.type).toBe('user');
    expect((await h.client.authenticate({ credential: key.key }, h.gateway)).principal?.type).toBe('service_account');
  });

  test('a confidential client must authenticate', async () => {
    const { client: confidential, clientSecret } = await h.client.registerClient({ redirectUris: [redirectUri] }, h.gateway);
    expect(await failure(revoke('svc_at_x', { clientId: confidential!.clientId }))).toMatchObject({ code: Code.Unauthenticated, oauthError: 'invalid_client' });
    await revoke('svc_at_x', { clientId: confidential!.clientId, clientSecret });
    expect(await failure(revoke('svc_at_x', { clientId: '' }))).toMatchObject({ oauthError: 'invalid_client' });
  });
});
