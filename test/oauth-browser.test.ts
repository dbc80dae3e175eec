// A person signs in through the login and consent page in a real browser (headless Chromium):
// the page works without JavaScript, the form posts, and the client receives its code.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchChromium } from './support/browser.js';
import { addAcceptedMember } from './support/invitations.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
let browser: Browser;
let callback: http.Server;
let callbackPort: number;
const received: URL[] = [];
const user = { email: 'linus@example.com', password: 'kernel hacker 1991' };

beforeAll(async () => {
  platform = await startTestPlatform({ VOICE_PLATFORM_NAME: 'Acme Voice' });
  const workspace = await platform.workspace();
  await addAcceptedMember(platform, workspace.key, { email: user.email, role: 'admin' }, user.password);
  callback = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${callbackPort}`);
    // Browsers also ask for /favicon.ico; only the redirect counts.
    if (url.pathname === '/callback') received.push(url);
    res.setHeader('content-type', 'text/html');
    res.end('<title>Signed in</title><p>You can close this window.</p>');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackPort = (callback.address() as AddressInfo).port;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  callback?.closeAllConnections();
  await new Promise<void>((resolve) => (callback ? callback.close(() => resolve()) : resolve()));
  await platform?.close();
});

test('signing in and approving in the browser delivers a code the client can exchange', async () => {
  const registered = await fetch(`${platform.running.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none', client_name: 'Desk Agent', scope: 'assistants:read' }),
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = `http://127.0.0.1:${callbackPort}/callback`;
  const url = new URL(`${platform.running.url}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'browser-state',
  }).toString();

  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(url.toString());
  // The browser shows where the code goes, prominently, and the client's name only as its claim.
  expect(await page.locator('.redirect-host').innerText()).toBe(`this computer (127.0.0.1:${callbackPort})`);
  expect(await page.locator('.unverified').isVisible()).toBe(true);
  expect(await page.locator('h1').innerText()).not.toContain('Desk Agent');
  expect(await page.locator('.claim').innerText()).toBe('It calls itself “Desk Agent”: not verified.');
  expect(await page.locator('.brand').innerText()).toBe('Acme Voice');
  expect(await page.locator('ul.scopes').innerText()).toContain('assistants:read');

  await page.fill('#email', user.email);
  await page.fill('#password', 'wrong password!!');
  await page.click('button.approve');
  expect(await page.locator('[role=alert]').innerText()).toBe('The e-mail or password is wrong.');
  expect(received).toHaveLength(0);

  await page.fill('#password', user.password);
  await Promise.all([page.waitForURL(`${redirectUri}?**`), page.click('button.approve')]);
  expect(received).toHaveLength(1);
  const code = received[0]!.searchParams.get('code')!;
  expect(received[0]!.searchParams.get('state')).toBe('browser-state');
  expect(received[0]!.searchParams.get('iss')).toBe(platform.running.url);
  await context.close();

  const token = await fetch(`${platform.running.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: redirectUri, code_verifier: verifier }).toString(),
  });
  expect(token.status).toBe(200);
  const { access_token: accessToken } = (await token.json()) as { access_token: string };
  const me = await platform.api.get('/me', accessToken);
  expect(me.body.data.principal).toMatchObject({ type: 'user' });
}, 60_000);
