// A single-page app on another origin uses the API and the OAuth endpoints from a real browser
// (headless Chromium): preflights pass for the origins in VOICE_CORS_ORIGINS and for nobody else,
// answers are readable there, credentials (cookies) are never allowed, and the metadata is public.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './support/browser.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
let browser: Browser;
const pageServers: http.Server[] = [];
let appOrigin: string;
let strangerOrigin: string;
let key: string;

/** A server of one empty page: the origin a browser app runs on. */
async function pageServer(): Promise<string> {
  const server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>app</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pageServers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  appOrigin = await pageServer();
  strangerOrigin = await pageServer();
  platform = await startTestPlatform({ VOICE_CORS_ORIGINS: appOrigin });
  key = (await platform.workspace({ scopes: ['settings:read', 'billing:read'] })).key;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const server of pageServers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await platform?.close();
});

async function openAt(origin: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  return page;
}

/** fetch() run by the page: the status and body it could read, or the network error a CORS refusal is. */
const browserFetch = (page: Page, url: string, init: { method?: string; headers?: Record<string, string>; body?: string }) =>
  page.evaluate(
    async ({ url, init }) => {
      try {
        const answer = await fetch(url, init);
        return { status: answer.status, body: await answer.json(), requestId: answer.headers.get('x-request-id') };
      } catch (error) {
        return { error: String(error) };
      }
    },
    { url, init },
  );

test('an allowed origin calls /api/v1 with a bearer token: the preflight passes and the answer, its errors and exposed headers are readable', async () => {
  const page = await openAt(appOrigin);
  const me = await browserFetch(page, `${platform.running.url}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
  expect(me).toMatchObject({ status: 200, body: { data: { scopes: ['settings:read', 'billing:read'] } }, requestId: expect.any(String) });
  const created = await browserFetch(page, `${platform.running.url}/api/v1/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'spa-1' },
    body: JSON.stringify({ name: 'from the browser', scopes: ['billing:read'] }),
  });
  expect(created).toMatchObject({ status: 403, body: { error: { code: 'forbidden' } } });
  const anonymous = await browserFetch(page, `${platform.running.url}/api/v1/balance`, {});
  expect(anonymous).toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } } });
  await page.close();
});

test('the OAuth token endpoint answers an allowed origin (its errors too), and the metadata answers every origin', async () => {
  const page = await openAt(appOrigin);
  const token = await browserFetch(page, `${platform.running.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=authorization_code&code=nope&client_id=nobody&code_verifier=x&redirect_uri=https%3A%2F%2Fapp.example%2Fcb',
  });
  expect(token).toMatchObject({ status: expect.any(Number), body: { error: expect.any(String) } });
  await page.close();

  const stranger = await openAt(strangerOrigin);
  const metadata = await browserFetch(stranger, `${platform.running.url}/.well-known/oauth-authorization-server`, {});
  expect(metadata).toMatchObject({ status: 200, body: { token_endpoint: `${platform.running.url}/oauth/token` } });
  await stranger.close();
});

test('any other origin is refused: its preflight is 403 and the browser reads nothing', async () => {
  const page = await openAt(strangerOrigin);
  const me = await browserFetch(page, `${platform.running.url}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
  expect(me).toEqual({ error: expect.stringContaining('Failed to fetch') });
  const token = await browserFetch(page, `${platform.running.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
  expect(token).toEqual({ error: expect.stringContaining('Failed to fetch') });
  await page.close();

  const preflight = await fetch(`${platform.running.url}/api/v1/me`, {
    method: 'OPTIONS',
    headers: { origin: strangerOrigin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
  });
  expect(preflight.status).toBe(403);
  expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
});

test('the preflight names exactly what a bearer-token app needs, and nothing ever allows credentials', async () => {
  const preflight = await fetch(`${platform.running.url}/api/v1/tools`, {
    method: 'OPTIONS',
    headers: { origin: appOrigin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, idempotency-key' },
  });
  expect(preflight.status).toBe(204);
  expect(Object.fromEntries([...preflight.headers].filter(([name]) => name.startsWith('access-control-') || name === 'vary'))).toEqual({
    'access-control-allow-origin': appOrigin,
    'access-control-allow-methods': 'GET, POST, PATCH, DELETE',
    'access-control-allow-headers': 'Authorization, Content-Type, Idempotency-Key, X-Request-Id',
    'access-control-expose-headers': 'X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Idempotent-Replayed, WWW-Authenticate, Location',
    'access-control-max-age': '600',
    vary: 'Origin',
  });
  const answers = await Promise.all([
    fetch(`${platform.running.url}/api/v1/me`, { headers: { origin: appOrigin, authorization: `Bearer ${key}` } }),
    fetch(`${platform.running.url}/oauth/revoke`, { method: 'POST', headers: { origin: appOrigin, 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=x' }),
    fetch(`${platform.running.url}/.well-known/oauth-protected-resource`, { headers: { origin: strangerOrigin } }),
  ]);
  for (const answer of answers) expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
  expect(answers[2]!.headers.get('access-control-allow-origin')).toBe('*');
  // Without an Origin nothing changes for servers and tools.
  expect((await fetch(`${platform.running.url}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } })).headers.get('access-control-allow-origin')).toBeNull();
});
