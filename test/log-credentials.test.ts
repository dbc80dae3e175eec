// No log line carries a credential (issue 12 item 9): the platform's real log output, at debug,
// after requests that put credentials in paths (invitation links), query strings, headers and
// URLs: each request is logged with its route template, and nothing secret appears anywhere.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import { randomBase62 } from '@voice/runtime/crypto';
import { startTestPlatform, uniqueEmail, type TestPlatform } from './support/platform.js';
import { eventually } from './support/telephony.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ LOG_LEVEL: 'debug' });
});
afterAll(() => platform.close());

const requestLines = () =>
  platform
    .logs()
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

test('credentials in paths, query strings, headers and URLs never reach a log line', async () => {
  const { key } = await platform.workspace({ plan: 'enterprise' });
  const email = uniqueEmail('invited');
  expect((await platform.api.post('/platform/users', key, { email, name: 'Invited User' })).status).toBe(201);
  const outbox = join(platform.dataDir, 'mail-outbox');
  const mail = await eventually(async () => readdirSync(outbox).find((name) => name.endsWith('.eml')), 10_000, 'an invitation e-mail');
  const parsed = await PostalMime.parse(readFileSync(join(outbox, mail)));
  const token = /\/invitations\/([A-Za-z0-9_-]{20,})/.exec(parsed.text ?? '')![1]!;

  const url = platform.running.url;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const unknownKey = `svc_${randomBase62(43)}`;
  const querySecret = `q${randomBase62(30)}`;
  const state = `s${randomBase62(30)}`;
  const password = `p${randomBase62(30)}`;
  expect((await fetch(`${url}/invitations/${token}`)).status).toBe(200);
  expect((await fetch(`${url}/invitations/${token}/more`)).status).toBe(404);
  expect((await fetch(`${url}/invitations/${token}?from=mail&ref=${querySecret}`)).status).toBe(200);
  expect((await fetch(`${url}/invitations/${token}`, { method: 'POST', headers: form, body: `password=${password}&password_confirmation=${password}` })).status).toBe(200);
  expect((await fetch(`${url}/api/v1/me`, { headers: { authorization: `Bearer ${unknownKey}` } })).status).toBe(401);
  expect((await fetch(`${url}/api/v1/${unknownKey}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(404);
  expect((await fetch(`${url}/api/v1/tools?api_key=${querySecret}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(400);
  expect((await fetch(`${url}/oauth/authorize?response_type=code&client_id=https%3A%2F%2F127.0.0.1%3A1%2Fx&state=${state}`)).status).toBe(400);
  expect((await fetch(`${url}/oauth/token`, { method: 'POST', headers: { ...form, authorization: `Basic ${Buffer.from(`c:${password}`).toString('base64')}` }, body: `grant_type=refresh_token&refresh_token=${unknownKey}` })).status).toBeGreaterThanOrEqual(400);

  const lines = platform.logs();
  const all = lines.join('\n');
  for (const secret of [token, unknownKey, querySecret, state, password, key, platform.rootKey, Buffer.from(`c:${password}`).toString('base64')]) {
    expect(all).not.toContain(secret);
  }
  // Each request is logged with the template of the route that served it, and no path.
  const logged = requestLines();
  expect(logged.length).toBeGreaterThanOrEqual(9);
  expect(logged.filter((line) => line.route === '/invitations/:token').length).toBe(3);
  expect(logged.every((line) => !('path' in line))).toBe(true);
});
