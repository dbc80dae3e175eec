// Every refusal of the OAuth server: redirect URI rules at registration, PKCE and scope rules
// at authorization (sent back only to a trusted redirect URI), the login form's CSRF and
// credentials, and the per-address rate limits.
import { randomBytes, createHash } from 'node:crypto';
import { addAcceptedMember } from './support/invitations.js';
import { authorizeUrlOf, loadAuthorizePage, submitAuthorizeForm } from './support/oauth.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

/** Response bodies in tests are read as loosely as a client would. */
const json = (response: Response): Promise<any> => response.json();

let platform: TestPlatform;
let base: string;
let clientId: string;
const redirectUri = 'https://agent.example.com/callback';
const user = { email: 'grace@example.com', password: 'compiler pioneer 1952' };

beforeAll(async () => {
  platform = await startTestPlatform();
  base = platform.running.url;
  const workspace = await platform.workspace();
  await addAcceptedMember(platform, workspace.key, { email: user.email, role: 'member' }, user.password);
  clientId = (await register({ redirect_uris: [redirectUri, 'http://127.0.0.1/cb'], token_endpoint_auth_method: 'none', scope: 'assistants:read calls:read' })).body.client_id;
});
afterAll(() => platform.close());

async function register(body: unknown) {
  const response = await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, headers: response.headers, body: await json(response) };
}

const challenge = createHash('sha256').update('v'.repeat(43)).digest('base64url');

function authorizeUrl(overrides: Record<string, string | undefined> = {}): string {
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    ...overrides,
  };
  return authorizeUrlOf(base, params);
}

describe('registration (RFC 7591) with the redirect rules of SPEC.md 5.7', () => {
  test.each([
    ['the host name localhost', 'http://localhost:8080/cb'],
    ['localhost over https too', 'https://localhost/cb'],
    ['non-loopback http', 'http://agent.example.com/cb'],
    ['a private address over http', 'http://192.168.1.10/cb'],
    ['a fragment', 'https://agent.example.com/cb#frag'],
    ['userinfo', 'https://user:pw@agent.example.com/cb'],
    ['a user name alone', 'https://user@agent.example.com/cb'],
    ['a dot segment', 'https://agent.example.com/a/../cb'],
    ['a custom scheme', 'myapp://callback'],
    ['not a URI', 'not a uri'],
  ])('%s is refused with invalid_redirect_uri', async (_case, uri) => {
    const response = await register({ redirect_uris: [uri], token_endpoint_auth_method: 'none' });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_redirect_uri');
    expect(typeof response.body.error_description).toBe('string');
  });

  test.each([
    ['https', 'https://agent.example.com/cb'],
    ['http on 127.0.0.1 with a port', 'http://127.0.0.1:8080/cb'],
    ['http on [::1]', 'http://[::1]/cb'],
  ])('%s is accepted', async (_case, uri) => {
    const response = await register({ redirect_uris: [uri], token_endpoint_auth_method: 'none' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ redirect_uris: [uri], token_endpoint_auth_method: 'none' });
    expect(response.body.client_secret).toBeUndefined();
  });

  test('malformed and oversize bodies answer in the OAuth error format', async () => {
    const broken = await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"redirect_uris": [' });
    expect(broken.status).toBe(400);
    expect(await json(broken)).toEqual({ error: 'invalid_client_metadata', error_description: expect.any(String) });
    const huge = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [redirectUri], client_name: 'x'.repeat(70_000) }),
    });
    expect(huge.status).toBe(413);
    expect((await json(huge)).error).toBe('invalid_client_metadata');
    const notJson = await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect((await json(notJson)).error).toBe('invalid_client_metadata');
  });

  test('missing redirect URIs, non-canonical scopes and unknown grant types are refused', async () => {
    expect((await register({ token_endpoint_auth_method: 'none' })).body.error).toBe('invalid_redirect_uri');
    expect((await register({ redirect_uris: [redirectUri], scope: 'assistants:admin' })).body.error).toBe('invalid_client_metadata');
    expect((await register({ redirect_uris: [redirectUri], grant_types: ['password'] })).body.error).toBe('invalid_client_metadata');
  });
});

describe('authorization requests', () => {
  const pageOf = (url: string) => loadAuthorizePage(url);
  const errorRedirect = async (url: string) => {
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(redirectUri);
    expect(location.searchParams.get('state')).toBe('st-1');
    expect(location.searchParams.get('iss')).toBe(base);
    return location.searchParams.get('error');
  };

  test('the page shows the client and the requested scopes, with a CSRF token', async () => {
    const page = await pageOf(authorizeUrl({ scope: 'assistants:read' }));
    expect(page.status).toBe(200);
    expect(page.html).toContain('assistants:read');
    expect(page.html).not.toContain('calls:read');
    expect(page.fields.csrf_token).toMatch(/^[\w-]{40,}$/);
    expect(page.cookie).toMatch(/^voice_oauth_csrf=/);
  });

  test.each([
    ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['a missing code challenge', { code_challenge: undefined }, 'invalid_request'],
    ['a missing challenge method', { code_challenge_method: undefined }, 'invalid_request'],
    ['a malformed code challenge', { code_challenge: 'short' }, 'invalid_request'],
    ['a scope outside the client registration', { scope: 'billing:read' }, 'invalid_scope'],
    ['a non-canonical scope', { scope: 'assistants:everything' }, 'invalid_scope'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
    ['a foreign resource (RFC 8707)', { resource: 'https://other.example.com/api' }, 'invalid_target'],
  ])('%s goes back to the trusted redirect URI as %s', async (_case, overrides, error) => {
    expect(await errorRedirect(authorizeUrl(overrides))).toBe(error);
  });

  test.each([
    ['an unknown client', { client_id: '6f1c1d7e-9a5b-4c1e-8f00-123456789abc' }],
    ['a redirect URI the client did not register', { redirect_uri: 'https://evil.example.com/callback' }],
    ['a missing redirect URI', { redirect_uri: undefined }],
    ['a loopback port change on a non-loopback URI', { redirect_uri: 'https://agent.example.com:8443/callback' }],
  ])('%s is shown on the page and never redirected', async (_case, overrides) => {
    const response = await fetch(authorizeUrl(overrides), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('not valid');
  });

  test.each([
    ['a loopback address', 'https://127.0.0.1:9/oauth-client.json'],
    ['a host name resolving to loopback', 'https://localhost:9/oauth-client.json'],
    ['plain http', 'http://agent.example.com/oauth-client.json'],
  ])('a Client ID Metadata Document on %s is refused on the page, never fetched from a private address', async (_case, documentUrl) => {
    const response = await fetch(authorizeUrl({ client_id: documentUrl }), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('not valid');
  });

  test('the POST is checked again: a tampered hidden field is refused', async () => {
    const page = await pageOf(authorizeUrl());
    const answer = await submitAuthorizeForm(base, page, { ...user, action: 'approve', redirect_uri: 'https://evil.example.com/callback' });
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
  });
});

describe('the login form', () => {
  test('without the CSRF cookie, or with a forged token, nothing happens (403)', async () => {
    const page = await loadAuthorizePage(authorizeUrl());
    const noCookie = await submitAuthorizeForm(base, { ...page, cookie: '' }, { ...user, action: 'approve' });
    expect(noCookie.status).toBe(403);
    expect(noCookie.location).toBeNull();
    const forged = await submitAuthorizeForm(base, page, { ...user, action: 'approve', csrf_token: randomBytes(32).toString('base64url') });
    expect(forged.status).toBe(403);
  });

  test('a wrong password and an unknown e-mail get the same answer, and no code', async () => {
    const page = await loadAuthorizePage(authorizeUrl());
    const wrong = await submitAuthorizeForm(base, page, { email: user.email, password: 'not the password', action: 'approve' });
    const unknown = await submitAuthorizeForm(base, page, { email: 'nobody@example.com', password: 'not the password', action: 'approve' });
    for (const answer of [wrong, unknown]) {
      expect(answer.status).toBe(401);
      expect(answer.location).toBeNull();
      expect(answer.html).toContain('The e-mail or password is wrong.');
    }
  });

  test('deny sends access_denied back with the state', async () => {
    const page = await loadAuthorizePage(authorizeUrl());
    const answer = await submitAuthorizeForm(base, page, { action: 'deny' });
    expect(answer.status).toBe(302);
    const location = new URL(answer.location!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('st-1');
  });

  test('a correct sign-in redirects with a code, state and iss', async () => {
    const page = await loadAuthorizePage(authorizeUrl());
    const answer = await submitAuthorizeForm(base, page, { ...user, action: 'approve' });
    expect(answer.status).toBe(302);
    const location = new URL(answer.location!);
    expect(location.searchParams.get('code')).toMatch(/^svc_ac_/);
    expect([location.searchParams.get('state'), location.searchParams.get('iss')]).toEqual(['st-1', base]);
  });

  test('the page is protected against framing and caching', async () => {
    const response = await fetch(authorizeUrl());
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('the token endpoint', () => {
  const token = (body: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(body).toString() });

  test.each([
    [{ grant_type: 'password', client_id: 'x' }, 'unsupported_grant_type'],
    [{ client_id: 'x' }, 'invalid_request'],
    [{ grant_type: 'authorization_code', client_id: 'x' }, 'invalid_request'],
    [{ grant_type: 'refresh_token', client_id: 'x' }, 'invalid_request'],
    [{ grant_type: 'authorization_code', client_id: 'x', code: 'svc_ac_nope', redirect_uri: 'https://a.example/cb', code_verifier: 'v'.repeat(43), resource: 'https://other.example' }, 'invalid_target'],
  ])('%j is %s', async (body, error) => {
    const response = await token(body);
    expect(response.status).toBe(400);
    expect((await json(response)).error).toBe(error);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  test('an unknown code is invalid_grant', async () => {
    const response = await token({ grant_type: 'authorization_code', client_id: clientId, code: 'svc_ac_unknown', redirect_uri: redirectUri, code_verifier: 'v'.repeat(43) });
    expect((await json(response)).error).toBe('invalid_grant');
  });

  test('a JSON body is refused: the token endpoint takes forms', async () => {
    const response = await fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'refresh_token' }) });
    expect((await json(response)).error).toBe('invalid_request');
  });
});

describe('rate limits per client address', () => {
  test('registration, authorization and token exchange answer 429 with Retry-After past the limit', async () => {
    const limited = await startTestPlatform({ VOICE_OAUTH_RATE_LIMITS: 'register=2,authorize=2,token=2', VOICE_OAUTH_RATE_LIMIT_WINDOW_SECONDS: '3600' });
    try {
      const url = limited.running.url;
      const attempts = async (call: () => Promise<Response>) => {
        const statuses: number[] = [];
        let last: Response | undefined;
        for (let i = 0; i < 3; i += 1) {
          last = await call();
          statuses.push(last.status);
        }
        return { statuses, last: last! };
      };
      const registration = await attempts(() => fetch(`${url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirectUri] }) }));
      expect(registration.statuses).toEqual([201, 201, 429]);
      expect(Number(registration.last.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await json(registration.last)).error).toBe('slow_down');
      const authorization = await attempts(() => fetch(`${url}/oauth/authorize?client_id=x&redirect_uri=${encodeURIComponent(redirectUri)}`, { redirect: 'manual' }));
      expect(authorization.statuses).toEqual([400, 400, 429]);
      const tokens = await attempts(() => fetch(`${url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=password&client_id=x' }));
      expect(tokens.statuses).toEqual([400, 400, 429]);
      expect(tokens.last.headers.get('retry-after')).not.toBeNull();
    } finally {
      await limited.close();
    }
  });
});
