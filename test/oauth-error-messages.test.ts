// What each refusal of the OAuth server says: every error_description (and every message on the
// authorization page) names the parameter at fault and what was expected, with the RFC 6749 /
// 7591 / 7009 / 8707 error code, so a client developer can fix the request from the answer alone.
import { createHash, randomBytes } from 'node:crypto';
import { addAcceptedMember } from './support/invitations.js';
import { authorizeUrlOf, issueUserTokens, loadAuthorizePage, submitAuthorizeForm } from './support/oauth.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
let base: string;
/** A public client (PKCE only) and a confidential one (client_secret_basic). */
let publicClient: string;
let confidential: { client_id: string; client_secret: string };
const redirectUri = 'https://agent.example.com/callback';
const user = { email: 'ada@messages.example', password: 'analytical engine 1843' };
const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');

interface OAuthAnswer {
  status: number;
  error: string;
  description: string;
}

async function oauthAnswer(response: Response): Promise<OAuthAnswer> {
  const body = (await response.json()) as { error: string; error_description: string };
  expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
  return { status: response.status, error: body.error, description: body.error_description };
}

const register = async (body: string, contentType = 'application/json') =>
  oauthAnswer(await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': contentType }, body }));

async function registered(metadata: Record<string, unknown>): Promise<Record<string, string>> {
  const response = await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(metadata) });
  expect(response.status).toBe(201);
  return (await response.json()) as Record<string, string>;
}

const formPost = async (path: string, form: Record<string, string> | string, headers: Record<string, string> = {}) =>
  oauthAnswer(
    await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: typeof form === 'string' ? form : new URLSearchParams(form).toString(),
    }),
  );

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

function authorizeUrl(overrides: Record<string, string | undefined>): string {
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: publicClient,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-7',
    ...overrides,
  };
  return authorizeUrlOf(base, params);
}

/** The message of the page shown instead of the sign-in form (never a redirect: the client is not trusted). */
async function pageMessage(overrides: Record<string, string | undefined>): Promise<string> {
  const response = await fetch(authorizeUrl(overrides), { redirect: 'manual' });
  expect(response.status).toBe(400);
  const message = /<p class="error" role="alert">([^<]*)<\/p>/.exec(await response.text())?.[1];
  if (message === undefined) throw new Error('the page shows no error message');
  return message.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
}

/** The error sent back to the (trusted) redirect URI. */
async function redirectedError(overrides: Record<string, string | undefined>): Promise<{ error: string | null; description: string | null }> {
  const response = await fetch(authorizeUrl(overrides), { redirect: 'manual' });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
  expect(location.searchParams.get('state')).toBe('st-7');
  return { error: location.searchParams.get('error'), description: location.searchParams.get('error_description') };
}

beforeAll(async () => {
  // Every case below is one request; the per-address limits are not what this file is about.
  platform = await startTestPlatform({ VOICE_OAUTH_RATE_LIMITS: 'register=500,authorize=500,token=500' });
  base = platform.running.url;
  const workspace = await platform.workspace();
  await addAcceptedMember(platform, workspace.key, { email: user.email, role: 'member' }, user.password);
  publicClient = (await registered({ redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', scope: 'assistants:read calls:read' })).client_id!;
  const secretClient = await registered({ redirect_uris: [redirectUri], scope: 'assistants:read' });
  confidential = { client_id: secretClient.client_id!, client_secret: secretClient.client_secret! };
});
afterAll(() => platform.close());

describe('registration (RFC 7591)', () => {
  test.each([
    ['a body that is not JSON', () => register('redirect_uris=x', 'application/x-www-form-urlencoded'), 'invalid_client_metadata', 'the body must be a JSON object sent as Content-Type: application/json'],
    ['malformed JSON', () => register('{"redirect_uris": ['), 'invalid_client_metadata', 'the body is not valid JSON'],
    ['a JSON array', () => register('[]'), 'invalid_client_metadata', 'body: must be an object'],
    ['no redirect_uris', () => register('{}'), 'invalid_redirect_uri', 'redirect_uris: is required'],
    ['redirect_uris as a string', () => register('{"redirect_uris":"https://agent.example.com/cb"}'), 'invalid_redirect_uri', 'redirect_uris: must be an array'],
    ['a redirect URI that is a number', () => register('{"redirect_uris":[5]}'), 'invalid_redirect_uri', 'redirect_uris.0: must be a string'],
    ['no redirect URI in the list', () => register('{"redirect_uris":[]}'), 'invalid_redirect_uri', 'redirect_uris: must list at least one redirect URI'],
    [
      '21 redirect URIs',
      () => register(JSON.stringify({ redirect_uris: Array.from({ length: 21 }, (_, i) => `https://agent.example.com/${i}`) })),
      'invalid_redirect_uri',
      'redirect_uris: must list at most 20 redirect URIs',
    ],
    [
      'a redirect URI over http elsewhere than loopback',
      () => register('{"redirect_uris":["http://agent.example.com/cb"]}'),
      'invalid_redirect_uri',
      'redirect_uris: "http://agent.example.com/cb" may use http only on the loopback addresses 127.0.0.1 or [::1]',
    ],
    ['scope as a list', () => register('{"redirect_uris":["https://agent.example.com/cb"],"scope":["assistants:read"]}'), 'invalid_client_metadata', 'scope: must be a string'],
    [
      'scopes the platform does not have',
      () => register('{"redirect_uris":["https://agent.example.com/cb"],"scope":"read assistants:read write"}'),
      'invalid_client_metadata',
      'scope: names scopes this platform does not have: read, write',
    ],
    [
      'another client authentication method',
      () => register('{"redirect_uris":["https://agent.example.com/cb"],"token_endpoint_auth_method":"private_key_jwt"}'),
      'invalid_client_metadata',
      'token_endpoint_auth_method: must be one of none, client_secret_basic, client_secret_post, not "private_key_jwt"',
    ],
    ['the implicit flow', () => register('{"redirect_uris":["https://agent.example.com/cb"],"response_types":["token"]}'), 'invalid_client_metadata', 'response_types: must be code, not "token"'],
    [
      'a redirect URI of 2001 characters',
      () => register(JSON.stringify({ redirect_uris: [`https://agent.example.com/${'p'.repeat(2001 - 'https://agent.example.com/'.length)}`] })),
      'invalid_redirect_uri',
      'redirect_uris.0: must be at most 2000 characters',
    ],
    [
      'a client_name of 201 characters',
      () => register(JSON.stringify({ redirect_uris: ['https://agent.example.com/cb'], client_name: 'n'.repeat(201) })),
      'invalid_client_metadata',
      'client_name: must be at most 200 characters',
    ],
  ])('%s', async (_case, send, error, description) => {
    expect(await send()).toEqual({ status: 400, error, description });
  });
});

describe('authorization: refusals shown on the page (client or redirect_uri not trusted)', () => {
  test.each([
    ['neither client_id nor redirect_uri', { client_id: undefined, redirect_uri: undefined }, 'client_id and redirect_uri are required'],
    ['no redirect_uri', { redirect_uri: undefined }, 'redirect_uri is required'],
    ['no client_id', { client_id: undefined }, 'client_id is required'],
    ['a client_id that is neither a UUID nor an https URL', { client_id: 'my-app' }, 'client_id must be a registered client’s id (a UUID) or the https URL of a client metadata document'],
    ['an unknown client', { client_id: '0b7e3a52-9c1d-4f6e-8a2b-3c4d5e6f7a8b' }, 'the client_id names no registered client'],
    [
      'a metadata document URL without a path',
      { client_id: 'https://agent.example.com/' },
      'the client metadata document https://agent.example.com/ is unusable: client_id must have a path: the address of the metadata document, not the bare origin',
    ],
    ['a redirect_uri on localhost', { redirect_uri: 'http://localhost:8080/callback' }, 'redirect_uri must not use the host name localhost; use 127.0.0.1 or [::1]'],
    ['a redirect_uri the client did not register', { redirect_uri: 'https://elsewhere.example.com/callback' }, 'redirect_uri is not registered for this client'],
  ])('%s', async (_case, overrides, message) => {
    expect(await pageMessage(overrides)).toBe(message);
  });

  test('a form posted without its cookie says why it cannot be verified', async () => {
    const page = await loadAuthorizePage(authorizeUrl({}));
    expect(page.status).toBe(200);
    const answer = await submitAuthorizeForm(base, { ...page, cookie: '' }, { email: user.email, password: user.password, action: 'approve' });
    expect(answer.status).toBe(403);
    expect(answer.html).toContain('This form could not be verified');
    expect(answer.html).toContain('It was opened more than 30 minutes ago, or the browser did not keep its cookie.');
  });

  test('a parameter sent twice is named', async () => {
    const response = await fetch(`${authorizeUrl({})}&scope=assistants:read&scope=calls:read`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('scope is sent more than once');
  });
});

describe('authorization: refusals sent back to the registered redirect_uri', () => {
  test.each([
    ['no response_type', { response_type: undefined }, 'invalid_request', 'response_type is required'],
    ['the implicit flow', { response_type: 'token' }, 'unsupported_response_type', 'response_type must be code, not "token"'],
    ['no code_challenge_method', { code_challenge_method: undefined }, 'invalid_request', 'code_challenge_method is required and must be S256'],
    ['the plain method', { code_challenge_method: 'plain' }, 'invalid_request', 'code_challenge_method must be S256, not "plain"'],
    ['no code_challenge', { code_challenge: undefined }, 'invalid_request', 'code_challenge is required: the base64url SHA-256 of the code verifier'],
    ['a short code_challenge', { code_challenge: 'abc' }, 'invalid_request', 'code_challenge must be the base64url SHA-256 of the code verifier (43 characters)'],
    ['a scope the platform does not have', { scope: 'assistants:read everything' }, 'invalid_scope', 'scope names scopes this platform does not have: everything'],
    [
      'a scope the client did not register',
      { scope: 'assistants:read settings:write' },
      'invalid_scope',
      'scope asks for settings:write, beyond the scopes registered for the client (assistants:read calls:read)',
    ],
  ])('%s', async (_case, overrides, error, description) => {
    expect(await redirectedError(overrides)).toEqual({ error, description });
  });

  test('a resource that is not ours names the resources there are (RFC 8707)', async () => {
    expect(await redirectedError({ resource: 'https://api.elsewhere.example' })).toEqual({
      error: 'invalid_target',
      description: `resource must be ${base} (the REST API) or ${base}/mcp (the MCP endpoint)`,
    });
  });
});

describe('token endpoint (RFC 6749 5.2)', () => {
  const exchange = (extra: Record<string, string>) => ({ grant_type: 'authorization_code', client_id: publicClient, ...extra });

  test.each([
    ['no grant_type', { client_id: 'x' }, 'invalid_request', 'grant_type is required'],
    ['the password grant', { client_id: 'x', grant_type: 'password' }, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token, not "password"'],
    ['no client_id', { grant_type: 'refresh_token', refresh_token: 'x' }, 'invalid_request', 'client_id is required'],
    ['nothing of the code exchange', { grant_type: 'authorization_code', client_id: 'x' }, 'invalid_request', 'code, redirect_uri and code_verifier are required'],
    ['no code_verifier', { grant_type: 'authorization_code', client_id: 'x', code: 'c', redirect_uri: redirectUri }, 'invalid_request', 'code_verifier is required'],
    ['no refresh_token', { grant_type: 'refresh_token', client_id: 'x' }, 'invalid_request', 'refresh_token is required'],
  ])('%s', async (_case, form, error, description) => {
    expect(await formPost('/oauth/token', form)).toEqual({ status: 400, error, description });
  });

  test('a JSON body, and a parameter sent twice, say what the form must be', async () => {
    const json = await fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"grant_type":"refresh_token"}' });
    expect(await oauthAnswer(json)).toEqual({ status: 400, error: 'invalid_request', description: 'the body must be application/x-www-form-urlencoded' });
    expect(await formPost('/oauth/token', 'grant_type=refresh_token&grant_type=authorization_code&client_id=x')).toEqual({
      status: 400,
      error: 'invalid_request',
      description: 'grant_type is sent more than once',
    });
  });

  test('client authentication failures say which part of it is wrong (401 invalid_client)', async () => {
    const code = { code: 'svc_ac_unknown', redirect_uri: redirectUri, code_verifier: verifier };
    const cases: [Record<string, string>, Record<string, string>, string][] = [
      [exchange(code), { authorization: 'Bearer svc_at_0123456789' }, 'the Authorization header must carry HTTP Basic client credentials, not Bearer'],
      [exchange(code), { authorization: 'Basic ***' }, 'the Basic credentials must be the base64 of client_id:client_secret, each form-encoded (RFC 6749 2.3.1)'],
      [exchange(code), { authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` }, 'the Basic credentials must be the base64 of client_id:client_secret, each form-encoded (RFC 6749 2.3.1)'],
      [exchange({ ...code, client_id: confidential.client_id }), {}, 'client authentication failed: the client is confidential and sent no client secret'],
      [{ grant_type: 'authorization_code', ...code }, { authorization: basic(confidential.client_id, 'svc_cs_wrong') }, 'client authentication failed: the client secret is wrong'],
      [
        exchange({ ...code, client_id: confidential.client_id, client_secret: confidential.client_secret }),
        {},
        'client authentication failed: the client is registered for client_secret_basic, not client_secret_post',
      ],
      [exchange({ ...code, client_secret: 'svc_cs_any' }), {}, 'client authentication failed: a public client has no secret'],
    ];
    for (const [form, headers, description] of cases) {
      const answer = await fetch(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(form).toString(),
      });
      expect(answer.headers.get('www-authenticate')).toBe('Basic realm="voice-oauth"');
      expect(await oauthAnswer(answer)).toEqual({ status: 401, error: 'invalid_client', description });
    }
  });

  test('a bare Authorization value is not repeated in the answer: it may be a credential', async () => {
    const answer = await formPost('/oauth/token', exchange({ code: 'c', redirect_uri: redirectUri, code_verifier: verifier }), { authorization: 'abcdefghij0123456789' });
    expect(answer).toEqual({ status: 401, error: 'invalid_client', description: 'the Authorization header must carry HTTP Basic client credentials' });
  });

  test('client credentials sent two ways, or two client_ids, are named', async () => {
    const code = { grant_type: 'authorization_code', code: 'c', redirect_uri: redirectUri, code_verifier: verifier };
    expect(await formPost('/oauth/token', { ...code, client_secret: 'x' }, { authorization: basic(confidential.client_id, confidential.client_secret) })).toEqual({
      status: 400,
      error: 'invalid_request',
      description: 'the client secret is sent both in the Authorization header and as client_secret in the form; send it one way',
    });
    expect(await formPost('/oauth/token', { ...code, client_id: publicClient }, { authorization: basic(confidential.client_id, confidential.client_secret) })).toEqual({
      status: 400,
      error: 'invalid_request',
      description: 'client_id in the form is not the client_id of the Authorization header',
    });
  });

  test('a refresh names the scopes beyond the grant and the resources there are', async () => {
    const tokens = await issueUserTokens(base, user, 'assistants:read');
    const refresh = (extra: Record<string, string>) => ({ grant_type: 'refresh_token', client_id: tokens.client_id, refresh_token: tokens.refresh_token, ...extra });
    expect(await formPost('/oauth/token', refresh({ scope: 'assistants:read settings:write' }))).toEqual({
      status: 400,
      error: 'invalid_scope',
      description: 'scope asks for settings:write, beyond the scopes the user granted (assistants:read)',
    });
    expect(await formPost('/oauth/token', refresh({ scope: 'admin' }))).toEqual({
      status: 400,
      error: 'invalid_scope',
      description: 'scope names scopes this platform does not have: admin',
    });
    expect(await formPost('/oauth/token', refresh({ resource: 'https://api.elsewhere.example' }))).toEqual({
      status: 400,
      error: 'invalid_target',
      description: `resource must be ${base} (the REST API) or ${base}/mcp (the MCP endpoint)`,
    });
    // The refusals changed nothing: the refresh token still works.
    const fresh = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(refresh({})).toString(),
    });
    expect(fresh.status).toBe(200);
  });
});

describe('revocation (RFC 7009)', () => {
  test('a missing token or client is named', async () => {
    expect(await formPost('/oauth/revoke', { client_id: publicClient })).toEqual({ status: 400, error: 'invalid_request', description: 'token is required' });
    expect(await formPost('/oauth/revoke', { token: 'svc_at_unknown' })).toEqual({ status: 400, error: 'invalid_request', description: 'client_id is required' });
    expect(await formPost('/oauth/revoke', { token: 'svc_at_unknown' }, { authorization: 'Bearer svc_at_unknown' })).toEqual({
      status: 401,
      error: 'invalid_client',
      description: 'the Authorization header must carry HTTP Basic client credentials, not Bearer',
    });
  });
});
