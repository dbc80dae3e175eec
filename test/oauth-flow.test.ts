// The OAuth 2.0 authorization server end to end, driven by an independent client library
// (oauth4webapi): discovery, dynamic registration, authorization through the real login form
// with PKCE, token exchange, refresh rotation, replay detection and revocation.
import * as oauth from 'oauth4webapi';
import { expectError } from './support/api-client.js';
import { addAcceptedMember } from './support/invitations.js';
import { approveThroughForm } from './support/oauth.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

/** Response bodies in tests are read as loosely as a client would. */
const json = (response: Response): Promise<any> => response.json();

/** Every response the OAuth client library receives, for the leak check at the end. */
const oauthTranscript: string[] = [];
const recordingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  oauthTranscript.push(await response.clone().text());
  return response;
};
const insecure = { [oauth.allowInsecureRequests]: true, [oauth.customFetch]: recordingFetch };
const redirectUri = 'http://127.0.0.1:8765/callback';

let platform: TestPlatform;
let as: oauth.AuthorizationServer;
let workspace: { id: string; key: string };
const user = { email: 'ada@example.com', password: 'correct horse battery', name: 'Ada' };

beforeAll(async () => {
  platform = await startTestPlatform();
  workspace = await platform.workspace({ plan: 'pro' });
  const added = await addAcceptedMember(platform, workspace.key, { email: user.email, name: user.name, role: 'admin' }, user.password);
  expect(added.status).toBe(201);
  const issuer = new URL(platform.running.url);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
});
afterAll(() => platform.close());

async function registerPublicClient(scope = 'assistants:write settings:read') {
  const response = await oauth.dynamicClientRegistrationRequest(
    as,
    { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', client_name: 'Test agent', scope },
    insecure,
  );
  return oauth.processDynamicClientRegistrationResponse(response) as Promise<oauth.Client>;
}

async function authorize(client: oauth.Client, options: { scope?: string; resource?: string; redirect?: string } = {}) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('redirect_uri', options.redirect ?? redirectUri);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  if (options.scope) url.searchParams.set('scope', options.scope);
  if (options.resource) url.searchParams.set('resource', options.resource);
  const callback = await approveThroughForm(platform.running.url, url.toString(), user);
  const params = oauth.validateAuthResponse(as, client, callback, state);
  return { params, verifier, callback };
}

async function tokensFor(client: oauth.Client, scope?: string) {
  const { params, verifier } = await authorize(client, { scope });
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure);
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

const refresh = async (client: oauth.Client, token: string) =>
  oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), token, insecure));

describe('discovery', () => {
  test('RFC 8414 metadata names every endpoint and S256 only', () => {
    const base = platform.running.url;
    expect(as).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      response_types_supported: ['code'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
    expect(as.scopes_supported).toContain('assistants:write');
  });

  test('RFC 9728 metadata for the API and for /mcp (resource without query)', async () => {
    const api = await platform.api.get('/.well-known/oauth-protected-resource');
    expect(api.body).toMatchObject({ resource: platform.running.url, authorization_servers: [platform.running.url], bearer_methods_supported: ['header'] });
    const mcp = await platform.api.get('/.well-known/oauth-protected-resource/mcp');
    expect(mcp.body).toMatchObject({ resource: `${platform.running.url}/mcp`, authorization_servers: [platform.running.url] });
  });

  test('a 401 names the resource metadata; a 403 names the missing scope', async () => {
    const unauthorized = await platform.api.get('/tools');
    expect(unauthorized.headers.get('www-authenticate')).toContain(`resource_metadata="${platform.running.url}/.well-known/oauth-protected-resource"`);
    const reader = await platform.key(workspace.id, ['calls:read']);
    const forbidden = await platform.api.get('/tools', reader);
    expect(forbidden.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="assistants:read"');
  });
});

describe('the authorization code flow', () => {
  test('redirect URIs are canonical: registered in any spelling, matched by scheme and host case and default port, refused by what differs', async () => {
    const registered = await oauth.dynamicClientRegistrationRequest(
      as,
      { redirect_uris: ['HTTPS://App.Example:443/cb'], token_endpoint_auth_method: 'none', client_name: 'Canonical', scope: 'settings:read' },
      insecure,
    );
    const client = (await oauth.processDynamicClientRegistrationResponse(registered)) as oauth.Client;
    expect(client.redirect_uris).toEqual(['https://app.example/cb']);
    const { params, verifier, callback } = await authorize(client, { redirect: 'https://APP.example/cb' });
    expect(callback.origin).toBe('https://app.example');
    const elsewhere = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, 'https://app.example/cb/', verifier, insecure);
    expect(elsewhere.status).toBe(400);
    expect(await json(elsewhere)).toEqual({ error: 'invalid_grant', error_description: 'redirect_uri must be the one the authorization request sent' });
    const exchanged = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, 'https://app.example:443/cb', verifier, insecure);
    expect((await oauth.processAuthorizationCodeResponse(as, client, exchanged)).access_token).toMatch(/^svc_at_/);
  });

  test('registration, login form, PKCE and token exchange give a working svc_at_ token bound to the user', async () => {
    const client = await registerPublicClient();
    const tokens = await tokensFor(client);
    expect(tokens.access_token).toMatch(/^svc_at_/);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope).toBe('assistants:write settings:read');
    const me = await platform.api.get('/me', tokens.access_token);
    expect(me.body.data).toMatchObject({ principal: { type: 'user', name: user.name }, workspace: { id: workspace.id }, scopes: ['assistants:write', 'settings:read'] });
    expect((await platform.api.post('/tools', tokens.access_token, { name: 'via_oauth', type: 'api', config: { url: 'https://a.example' } })).status).toBe(201);
    expect((await platform.api.get('/api-keys', tokens.access_token)).status).toBe(200);
    expectError(await platform.api.post('/api-keys', tokens.access_token, { name: 'x', scopes: ['settings:read'] }), 403, 'forbidden');
  });

  test('the redirect carries state and iss (RFC 9207)', async () => {
    const client = await registerPublicClient();
    const { callback } = await authorize(client);
    expect(callback.searchParams.get('iss')).toBe(platform.running.url);
    expect(callback.origin + callback.pathname).toBe(redirectUri);
  });

  test('a loopback redirect URI matches on any port at authorization time (RFC 8252 7.3)', async () => {
    const client = await registerPublicClient();
    const { params, verifier } = await authorize(client, { redirect: 'http://127.0.0.1:49152/callback' });
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, 'http://127.0.0.1:49152/callback', verifier, insecure);
    expect((await oauth.processAuthorizationCodeResponse(as, client, response)).access_token).toMatch(/^svc_at_/);
  });

  test('RFC 8707 resource for our API and MCP is accepted', async () => {
    const client = await registerPublicClient();
    for (const resource of [platform.running.url, `${platform.running.url}/mcp`]) {
      const { params, verifier } = await authorize(client, { resource });
      const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, { ...insecure, additionalParameters: { resource } });
      expect((await oauth.processAuthorizationCodeResponse(as, client, response)).access_token).toMatch(/^svc_at_/);
    }
  });

  test('a confidential client authenticates with client_secret_basic', async () => {
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [redirectUri], client_name: 'Server app', scope: 'assistants:read' }, insecure),
    );
    expect(registered.client_secret).toMatch(/^svc_cs_/);
    const client = registered as oauth.Client;
    const { params, verifier } = await authorize(client);
    const wrong = await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretBasic('svc_cs_wrong'), params, redirectUri, verifier, insecure);
    expect(wrong.status).toBe(401);
    expect((await json(wrong)).error).toBe('invalid_client');
    const { params: params2, verifier: verifier2 } = await authorize(client);
    const right = await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretBasic(String(registered.client_secret)), params2, redirectUri, verifier2, insecure);
    expect((await oauth.processAuthorizationCodeResponse(as, client, right)).scope).toBe('assistants:read');
  });
});

describe('client authentication with the registered method only', () => {
  const confidential = async (method: 'client_secret_basic' | 'client_secret_post') => {
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [redirectUri], token_endpoint_auth_method: method, scope: 'assistants:read' }, insecure),
    );
    return { client: registered as oauth.Client, secret: String(registered.client_secret) };
  };

  test.each([
    ['client_secret_basic', 'client_secret_post'],
    ['client_secret_post', 'client_secret_basic'],
  ] as const)('a %s client presenting its secret with %s is invalid_client at every endpoint', async (registeredMethod, otherMethod) => {
    const { client, secret } = await confidential(registeredMethod);
    const auth = (method: string) => (method === 'client_secret_basic' ? oauth.ClientSecretBasic(secret) : oauth.ClientSecretPost(secret));
    const { params, verifier } = await authorize(client);
    const wrong = await oauth.authorizationCodeGrantRequest(as, client, auth(otherMethod), params, redirectUri, verifier, insecure);
    expect(wrong.status).toBe(401);
    const refusal = await json(wrong);
    expect(refusal.error).toBe('invalid_client');
    expect(refusal.error_description).toContain(registeredMethod);
    // The refused exchange did not use the code up: the right method still redeems it.
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, auth(registeredMethod), params, redirectUri, verifier, insecure),
    );
    const badRefresh = await oauth.refreshTokenGrantRequest(as, client, auth(otherMethod), tokens.refresh_token!, insecure);
    expect(badRefresh.status).toBe(401);
    expect((await json(badRefresh)).error).toBe('invalid_client');
    const badRevoke = await oauth.revocationRequest(as, client, auth(otherMethod), tokens.access_token, insecure);
    expect(badRevoke.status).toBe(401);
    expect((await platform.api.get('/me', tokens.access_token)).status).toBe(200);
    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, auth(registeredMethod), tokens.refresh_token!, insecure));
    expect(refreshed.access_token).toMatch(/^svc_at_/);
  });
});

describe('codes, refresh rotation, replay and revocation', () => {
  test('a code is single use: the second exchange is invalid_grant and revokes what the first issued', async () => {
    const client = await registerPublicClient();
    const { params, verifier } = await authorize(client);
    const first = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure));
    expect((await platform.api.get('/me', first.access_token)).status).toBe(200);
    const second = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure);
    expect(second.status).toBe(400);
    expect((await json(second)).error).toBe('invalid_grant');
    expectError(await platform.api.get('/me', first.access_token), 401, 'unauthorized');
  });

  test('a code is bound to its redirect URI and to its client', async () => {
    const client = await registerPublicClient();
    const other = await registerPublicClient();
    const { params, verifier } = await authorize(client);
    const elsewhere = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, 'http://127.0.0.1:8765/other', verifier, insecure);
    expect((await json(elsewhere)).error).toBe('invalid_grant');
    const stolen = await oauth.authorizationCodeGrantRequest(as, other, oauth.None(), params, redirectUri, verifier, insecure);
    expect((await json(stolen)).error).toBe('invalid_grant');
  });

  test('a resource at the token endpoint must be ours and match the code (RFC 8707)', async () => {
    const client = await registerPublicClient();
    const { params, verifier } = await authorize(client, { resource: `${platform.running.url}/mcp` });
    const foreign = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, {
      ...insecure,
      additionalParameters: { resource: 'https://other.example.com/api' },
    });
    expect((await json(foreign)).error).toBe('invalid_target');
    const mismatched = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, {
      ...insecure,
      additionalParameters: { resource: platform.running.url },
    });
    expect((await json(mismatched)).error).toBe('invalid_target');
  });

  test('a wrong code_verifier is invalid_grant', async () => {
    const client = await registerPublicClient();
    const { params } = await authorize(client);
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, oauth.generateRandomCodeVerifier(), insecure);
    expect((await json(response)).error).toBe('invalid_grant');
  });

  test('refresh rotates; a replayed refresh token revokes every token of the grant', async () => {
    const client = await registerPublicClient();
    const initial = await tokensFor(client);
    const rotated = await refresh(client, initial.refresh_token!);
    expect(rotated.refresh_token).not.toBe(initial.refresh_token);
    expect(rotated.access_token).not.toBe(initial.access_token);
    expect((await platform.api.get('/me', rotated.access_token)).status).toBe(200);
    await expect(refresh(client, initial.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expectError(await platform.api.get('/me', rotated.access_token), 401, 'unauthorized');
    await expect(refresh(client, rotated.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  test('refresh may narrow the scopes, never widen them', async () => {
    const client = await registerPublicClient();
    const initial = await tokensFor(client);
    const narrowed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), initial.refresh_token!, { ...insecure, additionalParameters: { scope: 'settings:read' } }),
    );
    expect(narrowed.scope).toBe('settings:read');
    const widened = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), narrowed.refresh_token!, { ...insecure, additionalParameters: { scope: 'billing:read' } });
    expect((await json(widened)).error).toBe('invalid_scope');
  });

  test('RFC 7009 revocation: the revoked access token is 401 on the next request', async () => {
    const client = await registerPublicClient();
    const tokens = await tokensFor(client);
    expect((await platform.api.get('/me', tokens.access_token)).status).toBe(200);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), tokens.access_token, insecure));
    expectError(await platform.api.get('/me', tokens.access_token), 401, 'unauthorized');
    // Revoking an unknown token is not an error (RFC 7009 2.2).
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), 'svc_at_unknown', insecure));
  });

  test('revoking the refresh token ends the grant', async () => {
    const client = await registerPublicClient();
    const tokens = await tokensFor(client);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), tokens.refresh_token!, insecure));
    await expect(refresh(client, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expectError(await platform.api.get('/me', tokens.access_token), 401, 'unauthorized');
  });
});

test('no response carried a password, a password hash or a stored hash', () => {
  const responses = [...platform.api.transcript, ...oauthTranscript];
  expect(oauthTranscript.length).toBeGreaterThan(10);
  const leaks = responses.filter((text) => text.includes(user.password) || /scrypt\$/.test(text) || /_hash"/.test(text));
  expect(leaks).toEqual([]);
});
