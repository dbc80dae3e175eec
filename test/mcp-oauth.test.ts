// An MCP client that knows only the endpoint's URL: the 401 names the protected-resource metadata,
// the SDK's auth() finds the authorization server from it, registers itself, sends the user
// through the sign-in page (driven here like a browser), exchanges the code with PKCE, and then
// calls tools with the token it got.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { approveThroughForm } from './support/oauth.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

/** A client application's memory, and its "browser": the sign-in page answered as the user would. */
class TestProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  code?: string;
  readonly redirectUrl = 'http://127.0.0.1:49152/callback';

  constructor(private readonly user: { email: string; password: string }) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'MCP e2e client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'billing:read settings:read',
    };
  }
  clientInformation = () => this.client;
  saveClientInformation = (client: OAuthClientInformationMixed) => void (this.client = client);
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => void (this.saved = tokens);
  saveCodeVerifier = (verifier: string) => void (this.verifier = verifier);
  codeVerifier = () => this.verifier;
  async redirectToAuthorization(url: URL): Promise<void> {
    const back = await approveThroughForm(platform.running.url, url.href, this.user);
    this.code = back.searchParams.get('code') ?? undefined;
  }
}

test('from the 401 alone to a tool call: discovery, registration, consent, PKCE exchange', async () => {
  const email = `mcp.oauth.${process.pid}@customers.example`;
  const password = 'correct horse battery';
  const registered = await platform.api.post('/platform/users', platform.rootKey, { email, name: 'MCP Owner', password, plan: 'pro' });
  expect(registered.status).toBe(201);
  const provider = new TestProvider({ email, password });
  const url = new URL(`${platform.running.url}/mcp`);

  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(new Client({ name: 'e2e', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.client?.client_id).toBeTruthy();
  expect(provider.code).toMatch(/\S+/);
  await first.finishAuth(provider.code!);
  expect(provider.saved?.access_token).toMatch(/^svc_at_/);

  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  expect(tools).toEqual(expect.arrayContaining(['get_me', 'get_balance']));
  // A pro workspace lacks white_label: the platform tools are not offered to it.
  expect(tools.filter((name) => name.includes('platform') || name.includes('custom_domain'))).toEqual([]);
  const me = (await client.callTool({ name: 'get_me', arguments: {} })) as unknown as {
    structuredContent: { data: { principal: { type: string }; workspace: { id: string }; scopes: string[] } };
  };
  expect(me.structuredContent.data.principal.type).toBe('user');
  expect(me.structuredContent.data.workspace.id).toBe(registered.body.data.workspaces[0].id);
  expect([...me.structuredContent.data.scopes].sort()).toEqual(provider.saved!.scope!.split(' ').sort());
  await client.close();
});
