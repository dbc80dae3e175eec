// OAuth access tokens are bound to the resource they were issued for (RFC 8707; the MCP
// authorization spec 2025-11-25 requires a server to refuse tokens issued for another): a token
// for `<origin>/mcp` works only at /mcp, one for the REST API (or requested without a resource)
// only under /api/v1, and a refresh keeps the binding. Service-account keys work at both (SPEC.md
// 1 rule 2). Driven by oauth4webapi and the MCP SDK client.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as oauth from 'oauth4webapi';
import { expectError } from './support/api-client.js';
import { approveThroughForm } from './support/oauth.js';
import { startTestPlatform, uniqueEmail, type TestPlatform } from './support/platform.js';

const insecure = { [oauth.allowInsecureRequests]: true };
const redirectUri = 'http://127.0.0.1:8765/callback';
const password = 'correct horse battery';

let platform: TestPlatform;
let as: oauth.AuthorizationServer;
let client: oauth.Client;
let user: { email: string; password: string; workspaceId: string; userId: string };

beforeAll(async () => {
  platform = await startTestPlatform();
  const email = uniqueEmail('audience');
  // A pro workspace: /mcp needs the mcp plan feature.
  const registered = await platform.api.post('/platform/users', platform.rootKey, { email, name: 'Audience Owner', password, plan: 'pro' });
  expect(registered.status).toBe(201);
  user = { email, password, workspaceId: registered.body.data.workspaces[0].id, userId: registered.body.data.id };
  const issuer = new URL(platform.running.url);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  client = (await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', scope: 'billing:read settings:read' }, insecure),
  )) as oauth.Client;
});
afterAll(() => platform.close());

const apiResource = () => platform.running.url;
const mcpResource = () => `${platform.running.url}/mcp`;

/** Tokens through the whole flow, with `resource` at the authorization and the token request when given. */
async function tokensFor(resource?: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...(resource ? { resource } : {}),
  }).toString();
  const callback = await approveThroughForm(platform.running.url, url.toString(), user);
  const params = oauth.validateAuthResponse(as, client, callback, oauth.skipStateCheck);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, {
    ...insecure,
    ...(resource ? { additionalParameters: { resource } } : {}),
  });
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

const refresh = async (refreshToken: string, resource?: string) =>
  oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, { ...insecure, ...(resource ? { additionalParameters: { resource } } : {}) });

/** One MCP request with the credential, as the SDK client sends it: the tools it may list, or the refusal. */
async function mcpWith(credential: string): Promise<{ tools: string[] } | { error: unknown }> {
  const mcp = new Client({ name: 'e2e', version: '1.0.0' });
  try {
    await mcp.connect(new StreamableHTTPClientTransport(new URL(mcpResource()), { requestInit: { headers: { authorization: `Bearer ${credential}` } } }));
    return { tools: (await mcp.listTools()).tools.map((tool) => tool.name) };
  } catch (error) {
    return { error };
  } finally {
    await mcp.close();
  }
}

/** The raw /mcp answer to an initialize request with the credential. */
const rawMcp = (credential: string) =>
  fetch(mcpResource(), {
    method: 'POST',
    headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
  });

function expectInvalidTokenAt(response: { status: number; headers: Headers }, metadataPath: string) {
  expect(response.status).toBe(401);
  const challenge = response.headers.get('www-authenticate')!;
  expect(challenge).toContain('error="invalid_token"');
  expect(challenge).toContain(`resource_metadata="${platform.running.url}${metadataPath}"`);
}

test('a token issued for /mcp works at /mcp only', async () => {
  const tokens = await tokensFor(mcpResource());
  expect(await mcpWith(tokens.access_token)).toEqual({ tools: expect.arrayContaining(['get_balance', 'get_me']) });
  const rest = await platform.api.get('/me', tokens.access_token);
  expectError(rest, 401, 'unauthorized');
  expectInvalidTokenAt(rest, '/.well-known/oauth-protected-resource');
  expect(rest.body.error.message).toContain('another resource');
});

test('a token issued for the REST API works under /api/v1 only', async () => {
  const tokens = await tokensFor(apiResource());
  expect((await platform.api.get('/me', tokens.access_token)).status).toBe(200);
  expect(await mcpWith(tokens.access_token)).toEqual({ error: expect.anything() });
  expectInvalidTokenAt(await rawMcp(tokens.access_token), '/.well-known/oauth-protected-resource/mcp');
});

test('a token requested without a resource is bound to the REST API', async () => {
  const tokens = await tokensFor();
  expect((await platform.api.get('/me', tokens.access_token)).status).toBe(200);
  expectInvalidTokenAt(await rawMcp(tokens.access_token), '/.well-known/oauth-protected-resource/mcp');
});

test('a refresh keeps the binding, and cannot move it to another resource', async () => {
  const tokens = await tokensFor(mcpResource());
  const moved = await refresh(tokens.refresh_token!, apiResource());
  expect(moved.status).toBe(400);
  expect(((await moved.json()) as { error: string }).error).toBe('invalid_target');
  const refreshed = await oauth.processRefreshTokenResponse(as, client, await refresh(tokens.refresh_token!));
  expect(await mcpWith(refreshed.access_token)).toEqual({ tools: expect.arrayContaining(['get_balance']) });
  expectError(await platform.api.get('/me', refreshed.access_token), 401, 'unauthorized');
  const again = await oauth.processRefreshTokenResponse(as, client, await refresh(refreshed.refresh_token!, mcpResource()));
  expect(await mcpWith(again.access_token)).toEqual({ tools: expect.arrayContaining(['get_balance']) });
});

test('tokens a platform issues for its users are bound to the REST API', async () => {
  const issued = await platform.api.post(`/platform/users/${user.userId}/token`, platform.rootKey, {});
  expect(issued.status).toBe(201);
  expect((await platform.api.get('/me', issued.body.data.access_token)).status).toBe(200);
  expectInvalidTokenAt(await rawMcp(issued.body.data.access_token), '/.well-known/oauth-protected-resource/mcp');
  const login = await platform.api.post('/platform/users/login', platform.rootKey, { email: user.email, password });
  expectInvalidTokenAt(await rawMcp(login.body.data.access_token), '/.well-known/oauth-protected-resource/mcp');
});

test('a service-account key works at both', async () => {
  const { key } = await platform.workspace({ plan: 'pro' });
  expect((await platform.api.get('/me', key)).status).toBe(200);
  expect(await mcpWith(key)).toEqual({ tools: expect.arrayContaining(['get_me']) });
});
