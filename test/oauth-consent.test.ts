// The consent page says what is known, not what a client claims: where the code will be sent (the
// redirect URI's host, prominently), that a dynamically registered client is unverified, and its
// name and address only as its own unverified claims. A client registered as "Claude" with
// client_uri https://claude.ai that redirects elsewhere must not look genuine.
import { createHash, randomBytes } from 'node:crypto';
import { addAcceptedMember } from './support/invitations.js';
import { loadAuthorizePage, submitAuthorizeForm, type FormPage } from './support/oauth.js';
import { startTestPlatform, uniqueEmail, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
let base: string;
const password = 'correct horse battery';

beforeAll(async () => {
  platform = await startTestPlatform();
  base = platform.running.url;
});
afterAll(() => platform.close());

async function register(metadata: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token_endpoint_auth_method: 'none', scope: 'assistants:read', ...metadata }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

function consentUrl(clientId: string, redirectUri: string): string {
  const url = new URL(`${base}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

/** The text of the element with this class (the page is plain HTML without nesting inside these). */
const textOf = (html: string, className: string): string | undefined =>
  new RegExp(`<[a-z0-9]+ class="${className}"[^>]*>([\\s\\S]*?)</`).exec(html)?.[1];

const headingOf = (html: string): string => /<h1>([\s\S]*?)<\/h1>/.exec(html)![1]!;

function expectHonest(page: Pick<FormPage, 'html'>, destination: string) {
  expect(textOf(page.html, 'redirect-host')).toBe(destination);
  expect(textOf(page.html, 'unverified')).toContain('Unverified application');
  // The claimed name is never the heading, never a link, and only ever shown as a claim.
  expect(headingOf(page.html)).not.toContain('Claude');
  expect(page.html).not.toMatch(/<a\s/);
  const claim = textOf(page.html, 'claim')!;
  expect(claim).toContain('Claude');
  expect(claim).toContain('https://claude.ai');
  expect(claim).toContain('not verified');
  expect(page.html.split('Claude')).toHaveLength(2);
}

test('a client calling itself Claude that redirects elsewhere: the page shows the real destination and marks it unverified', async () => {
  const redirectUri = 'https://collector.attacker.example/oauth/cb';
  const clientId = await register({ client_name: 'Claude', client_uri: 'https://claude.ai', redirect_uris: [redirectUri] });
  const page = await loadAuthorizePage(consentUrl(clientId, redirectUri));
  expect(page.status).toBe(200);
  expectHonest(page, 'collector.attacker.example');
});

test('a loopback redirect is shown as this computer, with its port', async () => {
  const clientId = await register({ client_name: 'Claude', client_uri: 'https://claude.ai', redirect_uris: ['http://127.0.0.1/callback'] });
  const page = await loadAuthorizePage(consentUrl(clientId, 'http://127.0.0.1:8765/callback'));
  expectHonest(page, 'this computer (127.0.0.1:8765)');
});

test('a client without a name is not given one', async () => {
  const redirectUri = 'https://agent.example.com/cb';
  const clientId = await register({ redirect_uris: [redirectUri] });
  const page = await loadAuthorizePage(consentUrl(clientId, redirectUri));
  expect(textOf(page.html, 'redirect-host')).toBe('agent.example.com');
  expect(textOf(page.html, 'unverified')).toContain('Unverified application');
  expect(textOf(page.html, 'claim')).toBeUndefined();
});

test('the workspace choice after sign-in shows the destination and the warning again', async () => {
  const email = uniqueEmail('consent');
  const registered = await platform.api.post('/platform/users', platform.rootKey, { email, name: 'Two Workspaces', password });
  expect(registered.status).toBe(201);
  // A second workspace of the same user, so the page asks which one.
  const other = await platform.workspace();
  const invited = await addAcceptedMember(platform, other.key, { email, role: 'admin' }, password);
  expect(invited.status).toBe(201);
  const redirectUri = 'https://collector.attacker.example/oauth/cb';
  const clientId = await register({ client_name: 'Claude', client_uri: 'https://claude.ai', redirect_uris: [redirectUri] });
  const page = await loadAuthorizePage(consentUrl(clientId, redirectUri));
  const choice = await submitAuthorizeForm(base, page, { email, password, action: 'approve' });
  expect(choice.status).toBe(200);
  expect(choice.fields.login_ticket).toBeTruthy();
  expectHonest(choice, 'collector.attacker.example');
});
