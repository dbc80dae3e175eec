// RegisterClient (RFC 7591) and clients described by Client ID Metadata Documents, with the
// document fetcher injected through IdentityDeps.fetchClientMetadata.
import { Code } from '@connectrpc/connect';
import { canonicalScopes } from '@voice/runtime/access';
import { sha256Hex } from '@voice/runtime/crypto';
import type { RegisterClientRequest } from '@voice/proto/voice/identity/v1/identity';

type Metadata = Partial<Omit<RegisterClientRequest, '$typeName' | '$unknown'>>;
import { MetadataUnavailable } from '../src/oauth/metadata-fetch.js';
import { failure, pkce, setup, tokensFor, type Harness } from './harness.js';

const register = (h: Harness, fields: Metadata) =>
  h.client.registerClient({ redirectUris: ['https://app.example/cb'], ...fields }, h.gateway);

describe('RegisterClient', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await setup();
  });
  afterEach(async () => {
    await h.store.close();
  });

  test('a confidential client by default: client_secret_basic, a secret shown once and stored as a hash, every scope', async () => {
    const { client, clientSecret } = await register(h, {});
    expect(client).toMatchObject({
      clientName: '',
      redirectUris: ['https://app.example/cb'],
      scopes: [...canonicalScopes],
      grantTypes: ['authorization_code', 'refresh_token'],
      tokenEndpointAuthMethod: 'client_secret_basic',
      metadataDocument: false,
      clientUri: '',
    });
    expect(client?.clientId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(client?.createdAt).toBeDefined();
    expect(clientSecret).toMatch(/^svc_cs_[0-9A-Za-z]{43}$/);
    expect((await h.store.getClient(client!.clientId))?.secretHash).toBe(sha256Hex(clientSecret));
  });

  test('a public client gets no secret; metadata is kept as sent', async () => {
    const { client, clientSecret } = await register(h, {
      clientName: 'Claude Desktop',
      redirectUris: ['http://127.0.0.1/callback', 'https://app.example/cb', 'https://app.example/cb'],
      grantTypes: ['authorization_code'],
      responseTypes: ['code'],
      tokenEndpointAuthMethod: 'none',
      scope: 'calls:read  assistants:write calls:read',
      clientUri: 'https://app.example',
    });
    expect(clientSecret).toBe('');
    expect(client).toMatchObject({
      clientName: 'Claude Desktop',
      redirectUris: ['http://127.0.0.1/callback', 'https://app.example/cb'],
      scopes: ['calls:read', 'assistants:write'],
      grantTypes: ['authorization_code'],
      tokenEndpointAuthMethod: 'none',
      clientUri: 'https://app.example',
    });
    expect((await h.store.getClient(client!.clientId))?.secretHash).toBeNull();
    expect((await register(h, { tokenEndpointAuthMethod: 'client_secret_post' })).clientSecret).toMatch(/^svc_cs_/);
  });

  test('redirect URIs are kept in canonical form, so spellings of one URI are one registration', async () => {
    const { client } = await register(h, { redirectUris: ['HTTPS://App.Example:443/cb', 'https://app.example/cb', 'https://app.example:8443/Cb'] });
    expect(client?.redirectUris).toEqual(['https://app.example/cb', 'https://app.example:8443/Cb']);
  });

  test.each([
    ['https://a.example/cb', true],
    ['http://127.0.0.1:8080/cb', true],
    ['http://[::1]/cb', true],
    ['http://localhost/cb', false],
    ['http://192.168.1.10/cb', false],
    ['http://example.com/cb', false],
    ['https://a.example/cb#x', false],
    ['https://user:pw@a.example/cb', false],
    ['myapp://cb', false],
  ])('redirect URI %s registers: %s', async (uri, allowed) => {
    if (allowed) {
      expect((await register(h, { redirectUris: [uri] })).client?.redirectUris).toEqual([uri]);
    } else {
      const refused = await failure(register(h, { redirectUris: ['https://ok.example/cb', uri] }));
      expect(refused).toMatchObject({ code: Code.InvalidArgument, reason: 'invalid_request', oauthError: 'invalid_redirect_uri' });
      expect(refused.fields[0]?.field).toBe('redirect_uris');
      expect(refused.message).toContain(uri);
    }
  });

  test.each<[string, Metadata, string, string]>([
    ['no redirect URI', { redirectUris: [] }, 'invalid_redirect_uri', 'redirect_uris'],
    ['21 redirect URIs', { redirectUris: Array.from({ length: 21 }, (_, i) => `https://a.example/${i}`) }, 'invalid_redirect_uri', 'redirect_uris'],
    ['an implicit grant', { grantTypes: ['authorization_code', 'implicit'] }, 'invalid_client_metadata', 'grant_types'],
    ['refresh_token alone', { grantTypes: ['refresh_token'] }, 'invalid_client_metadata', 'grant_types'],
    ['response type token', { responseTypes: ['token'] }, 'invalid_client_metadata', 'response_types'],
    ['private_key_jwt', { tokenEndpointAuthMethod: 'private_key_jwt' }, 'invalid_client_metadata', 'token_endpoint_auth_method'],
    ['a non-canonical scope', { scope: 'calls:read admin' }, 'invalid_client_metadata', 'scope'],
    ['a 201-character name', { clientName: 'x'.repeat(201) }, 'invalid_client_metadata', 'client_name'],
    ['an http client_uri', { clientUri: 'http://app.example' }, 'invalid_client_metadata', 'client_uri'],
    ['a client_uri that is no URL', { clientUri: 'app' }, 'invalid_client_metadata', 'client_uri'],
  ])('refuses %s', async (_, fields, oauthError, field) => {
    const refused = await failure(register(h, fields));
    expect(refused).toMatchObject({ code: Code.InvalidArgument, reason: 'invalid_request', oauthError });
    expect(refused.fields.map((f) => f.field)).toEqual([field]);
  });

  test('is for platform services only', async () => {
    const workspace = await h.newWorkspace();
    expect((await failure(h.client.registerClient({ redirectUris: ['https://a.example/cb'] }, h.serviceAccount(workspace.id)))).code).toBe(
      Code.PermissionDenied,
    );
  });
});

describe('Client ID Metadata Documents', () => {
  const url = 'https://app.example/oauth/client.json';
  const document = (fields: Record<string, unknown> = {}) => ({
    client_id: url,
    client_name: 'Example MCP client',
    redirect_uris: ['http://127.0.0.1/callback', 'https://app.example/callback'],
    scope: 'calls:read assistants:read',
    ...fields,
  });

  let h: Harness;
  let served: unknown;
  let fetched: string[];
  beforeEach(async () => {
    served = document();
    fetched = [];
    h = await setup({
      fetchClientMetadata: async (requested) => {
        fetched.push(requested);
        if (served instanceof Error) throw served;
        return served;
      },
    });
  });
  afterEach(async () => {
    await h.store.close();
  });

  const check = (clientId = url, redirectUri = 'http://127.0.0.1:43210/callback') =>
    h.client.checkAuthorizationRequest(
      { clientId, redirectUri, responseType: 'code', codeChallengeMethod: 'S256', codeChallenge: pkce().challenge, scope: '' },
      h.gateway,
    );

  test('a client_id that is an https URL resolves to the public client its document describes', async () => {
    const answer = await check();
    expect(answer.redirectUriTrusted).toBe(true);
    expect(answer.scopes).toEqual(['calls:read', 'assistants:read']);
    expect(answer.client).toMatchObject({
      clientId: url,
      clientName: 'Example MCP client',
      redirectUris: ['http://127.0.0.1/callback', 'https://app.example/callback'],
      scopes: ['calls:read', 'assistants:read'],
      grantTypes: ['authorization_code', 'refresh_token'],
      tokenEndpointAuthMethod: 'none',
      metadataDocument: true,
    });
    expect(fetched).toEqual([url]);
  });

  test('documents are kept for five minutes, then fetched again', async () => {
    await check();
    await check();
    expect(fetched).toHaveLength(1);
    h.clock.advance(5 * 60_000 + 1);
    await check();
    expect(fetched).toHaveLength(2);
  });

  test('a document client completes the whole flow as a public client', async () => {
    const workspace = await h.newWorkspace();
    const owner = await h.addMember(workspace.id, 'owner');
    served = document({ redirect_uris: ['https://app.example/callback'] });
    const tokens = await tokensFor(h, { workspaceId: workspace.id, userId: owner.userId }, ['calls:read'], url);
    expect(tokens.accessToken).toMatch(/^svc_at_/);
    const refused = await failure(
      h.client.refreshAccessToken({ clientId: url, clientSecret: 'svc_cs_guess', refreshToken: tokens.refreshToken }, h.gateway),
    );
    expect(refused).toMatchObject({ code: Code.Unauthenticated, oauthError: 'invalid_client' });
  });

  test.each<[string, unknown]>([
    ['a different client_id', document({ client_id: 'https://app.example/other.json' })],
    ['a client_id with a trailing slash', document({ client_id: `${url}/` })],
    ['no redirect_uris', document({ redirect_uris: undefined })],
    ['a localhost redirect URI', document({ redirect_uris: ['http://localhost/callback'] })],
    ['redirect_uris that are not strings', document({ redirect_uris: [42] })],
    ['a confidential auth method', document({ token_endpoint_auth_method: 'client_secret_basic' })],
    ['a client secret', document({ client_secret: 'shh', token_endpoint_auth_method: 'none' })],
    ['a non-canonical scope', document({ scope: 'everything' })],
    ['a name that is not a string', document({ client_name: 7 })],
    ['an array', [document()]],
    ['null', null],
    ['an egress refusal', new MetadataUnavailable('its address is not allowed')],
    ['a failed fetch', new MetadataUnavailable('it answered HTTP 404, not 200')],
  ])('a document with %s is invalid_client, shown on the page', async (_, body) => {
    served = body;
    const refused = await failure(check());
    expect(refused).toMatchObject({ code: Code.InvalidArgument, reason: 'invalid_request', oauthError: 'invalid_client' });
    expect(refused.fields).toEqual([{ field: 'redirect_uri_trusted', issue: 'false' }]);
    expect(refused.message).toContain(url);
  });

  test.each([
    'https://app.example',
    'https://app.example/',
    'https://app.example/a/../client.json',
    'https://app.example/a/%2e%2e/client.json',
    'https://APP.example/client.json',
    'https://app.example:443/client.json',
    'https://user@app.example/client.json',
    'https://app.example/client.json#x',
  ])('the URL %s is refused before anything is fetched', async (clientId) => {
    const refused = await failure(check(clientId));
    expect(refused).toMatchObject({ oauthError: 'invalid_client', fields: [{ field: 'redirect_uri_trusted', issue: 'false' }] });
    expect(fetched).toEqual([]);
  });

  test('a failure is not cached', async () => {
    served = new MetadataUnavailable('it answered HTTP 503, not 200');
    await failure(check());
    served = document();
    expect((await check()).client?.clientId).toBe(url);
    expect(fetched).toHaveLength(2);
  });
});
