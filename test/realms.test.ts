// User realms (issue 12 item 1) through the real gateway: every user belongs to one platform's
// realm (the root platform's or a white-label platform's); sign-in, OAuth clients and tokens
// work within it. The takeover of the issue (a white-label end-user plants a member with its own
// password, another platform adds the same e-mail) and its reverse through POST /platform/users
// fail, the same e-mail on two platforms is two users, and a realm's user never signs in through
// another realm's domain or client.
import { createHash, randomBytes } from 'node:crypto';
import { expectError } from './support/api-client.js';
import { startDnsServer, type DnsServer } from './support/dns-server.js';
import { addAcceptedMember, answerInvitation, invitationLinkTo } from './support/invitations.js';
import { loadAuthorizePage, submitAuthorizeForm } from './support/oauth.js';
import { startTestPlatform, uniqueEmail, type TestPlatform } from './support/platform.js';

const platformHost = 'voice.example.net';
let platform: TestPlatform;
let dns: DnsServer;

beforeAll(async () => {
  dns = await startDnsServer();
  platform = await startTestPlatform({
    VOICE_DNS_SERVERS: dns.address,
    VOICE_PUBLIC_URL: `https://${platformHost}`,
    // The test client stands in for the ingress: its X-Forwarded-Host names the tenant's domain.
    VOICE_TRUSTED_PROXIES: 'loopback',
  });
});
afterAll(async () => {
  await platform.close();
  await dns.close();
});

const password = 'correct horse battery';
const attackerPassword = 'mallory chose this one';
const redirectUri = 'http://127.0.0.1/callback';
let domainCounter = 0;

const whiteLabel = () => platform.workspace({ plan: 'enterprise', scopes: ['platform:write', 'settings:write'] });

/** A white-label platform whose custom domain is active. */
async function tenantWithDomain(): Promise<{ id: string; key: string; domain: string }> {
  const tenant = await whiteLabel();
  const domain = `app${++domainCounter}.${process.pid}.reseller.example`;
  const txt = (await platform.api.post('/custom-domain', tenant.key, { domain })).body.data.dns_records[1];
  dns.set(domain, 'CNAME', [platformHost]);
  dns.set(txt.name, 'TXT', [txt.value]);
  expect((await platform.api.post('/custom-domain/verify', tenant.key, {})).body.data.status).toBe('active');
  return { ...tenant, domain };
}

/** Headers a request through the ingress for `host` carries (none: the platform's own address). */
const through = (host?: string): Record<string, string> => (host ? { 'x-forwarded-host': host } : {});

/** A public client registered through `host`'s OAuth endpoint. */
async function registerClient(host?: string): Promise<string> {
  const response = await fetch(`${platform.running.url}/oauth/register`, {
    method: 'POST',
    headers: { ...through(host), 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', scope: 'calls:read settings:read' }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

/** Signs in on `host`'s authorization page for `clientId`: the page's status, or the form's answer. */
async function signIn(host: string | undefined, clientId: string, credentials: { email: string; password: string }) {
  const url = new URL(`${platform.running.url}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'calls:read',
    code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const page = await loadAuthorizePage(url.toString(), through(host));
  if (page.status !== 200) return { status: page.status, html: page.html, code: null };
  const answer = await submitAuthorizeForm(platform.running.url, page, { ...credentials, action: 'approve' }, through(host));
  const code = answer.location ? new URL(answer.location).searchParams.get('code') : null;
  return { status: answer.status, html: answer.html, code };
}

/** A white-label platform's end-user with the user's own access token (POST /platform/users/{id}/token). */
async function endUser(platformKey: string, email: string, name: string, secret = password) {
  const user = (await platform.api.post('/platform/users', platformKey, { email, name, password: secret })).body.data;
  const token = (await platform.api.post(`/platform/users/${user.id}/token`, platformKey, {})).body.data.access_token as string;
  return { id: user.id as string, token };
}

test('the takeover of issue 12: another platform’s end-user plants the e-mail with its password; the victim’s user sets its own and the attacker gets nowhere', async () => {
  const victim = await whiteLabel();
  const attackerPlatform = await whiteLabel();
  const mallory = await endUser(attackerPlatform.key, uniqueEmail('mallory'), 'Mallory');
  const cfo = uniqueEmail('cfo').replace('@customers.example', '@victim.example');

  // Nobody sets another person's password; without one, the planted member is only invited.
  const withPassword = await platform.api.post('/workspace/members', mallory.token, { email: cfo, role: 'admin', password: attackerPassword, name: 'Planted by Mallory' });
  expectError(withPassword, 400, 'invalid_request');
  const planted = await platform.api.post('/workspace/members', mallory.token, { email: cfo, role: 'admin', name: 'Planted by Mallory' });
  expect(planted.body.data).toMatchObject({ status: 'invited' });
  const plantedLink = await invitationLinkTo(platform, cfo);

  // The platform that is the victim adds the same e-mail as an admin of its own workspace: another user, invited.
  const added = await platform.api.post('/workspace/members', victim.key, { email: cfo, role: 'admin' });
  expect(added.status).toBe(201);
  expect(added.body.data).toMatchObject({ status: 'invited' });
  expect(added.body.data.user_id).not.toBe(planted.body.data.user_id);
  expect(added.body.data.name).not.toBe('Planted by Mallory');
  const link = await invitationLinkTo(platform, cfo);
  expect(link.pathname).not.toBe(plantedLink.pathname);

  // The CFO opens the link in their mailbox and chooses their own password.
  const page = await fetch(`${platform.running.url}${link.pathname}`);
  expect(await page.text()).toContain('Choose a password');
  expect((await answerInvitation(platform, link, password)).status).toBe(200);
  const theirs = await signIn(undefined, await registerClient(), { email: cfo, password });
  expect(theirs.code).toEqual(expect.any(String));

  // The attacker's password opens nothing on the platform's sign-in page, where the victim's workspace is.
  const attempt = await signIn(undefined, await registerClient(), { email: cfo, password: attackerPassword });
  expect(attempt.status).toBe(401);
  expect(attempt.code).toBeNull();
  expect(attempt.html).toContain('The e-mail or password is wrong.');
  // Nor through the attacker's platform's own login: that realm's user never chose a password.
  expectError(await platform.api.post('/platform/users/login', attackerPlatform.key, { email: cfo, password: attackerPassword }), 401, 'unauthorized');
  expect((await platform.api.get('/workspace/members', victim.key)).body.data[0]).toMatchObject({ email: cfo, status: 'active' });
});

test('adding an e-mail that has a user in the realm answers as for a new one: no name, no membership, no password until the user accepts by signing in', async () => {
  const first = await platform.workspace({ scopes: ['settings:write'] });
  const second = await platform.workspace({ scopes: ['settings:write'] });
  const ada = uniqueEmail('ada');
  await addAcceptedMember(platform, first.key, { email: ada, role: 'owner', name: 'Ada Lovelace' }, password);

  const existing = await platform.api.post('/workspace/members', second.key, { email: ada, role: 'admin' });
  const fresh = await platform.api.post('/workspace/members', second.key, { email: uniqueEmail('nobody'), role: 'admin' });
  expect(existing.status).toBe(fresh.status);
  expect(Object.keys(existing.body.data).sort()).toEqual(Object.keys(fresh.body.data).sort());
  expect(existing.body.data).toMatchObject({ status: 'invited', name: ada.split('@')[0] });
  const listed = (await platform.api.get('/workspace/members', second.key)).body.data;
  expect(JSON.stringify(listed)).not.toContain('Lovelace');

  // Not a member until Ada accepts, with her own password, through the link in her mailbox.
  const link = await invitationLinkTo(platform, ada);
  expect(await (await fetch(`${platform.running.url}${link.pathname}`)).text()).toContain('Sign in as');
  expect((await answerInvitation(platform, link, attackerPassword)).status).toBe(400);
  expect((await platform.api.get('/workspace/members', second.key)).body.data.find((m: { email: string }) => m.email === ada).status).toBe('invited');
  expect((await answerInvitation(platform, link, password)).status).toBe(200);
  expect((await platform.api.get('/workspace/members', second.key)).body.data.find((m: { email: string }) => m.email === ada)).toMatchObject({ status: 'active', name: 'Ada Lovelace' });
});

test('the reverse through POST /platform/users: an e-mail another platform registered with its password is a new user here', async () => {
  const victim = await whiteLabel();
  const attackerPlatform = await whiteLabel();
  const cfo = uniqueEmail('cfo').replace('@customers.example', '@victim.example');
  const planted = await platform.api.post('/platform/users', attackerPlatform.key, { email: cfo, name: 'Planted', password: attackerPassword });
  expect(planted.status).toBe(201);

  const registered = await platform.api.post('/platform/users', victim.key, { email: cfo, name: 'The CFO', password });
  expect(registered.status).toBe(201);
  expect(registered.body.data.id).not.toBe(planted.body.data.id);
  expectError(await platform.api.post('/platform/users/login', victim.key, { email: cfo, password: attackerPassword }), 401, 'unauthorized');
  expect((await platform.api.post('/platform/users/login', victim.key, { email: cfo, password })).status).toBe(200);
  // The victim inviting it as a member of its own workspace (the root platform's realm) is another user again.
  const member = await platform.api.post('/workspace/members', victim.key, { email: cfo, role: 'admin' });
  expect([planted.body.data.id, registered.body.data.id]).not.toContain(member.body.data.user_id);
  await invitationLinkTo(platform, cfo);
  expect((await signIn(undefined, await registerClient(), { email: cfo, password: attackerPassword })).status).toBe(401);
});

test('the same e-mail on two platforms is two users, each with its own password and tokens', async () => {
  const first = await tenantWithDomain();
  const second = await tenantWithDomain();
  const email = uniqueEmail('twice');
  const one = await platform.api.post('/platform/users', first.key, { email, name: 'First', password });
  const other = await platform.api.post('/platform/users', second.key, { email, name: 'Second', password: attackerPassword });
  expect([one.status, other.status]).toEqual([201, 201]);
  expect(one.body.data.id).not.toBe(other.body.data.id);

  expect((await platform.api.post('/platform/users/login', first.key, { email, password })).status).toBe(200);
  expectError(await platform.api.post('/platform/users/login', first.key, { email, password: attackerPassword }), 401, 'unauthorized');
  expect((await platform.api.post('/platform/users/login', second.key, { email, password: attackerPassword })).status).toBe(200);
  expectError(await platform.api.post('/platform/users/login', second.key, { email, password }), 401, 'unauthorized');

  // On each platform's domain its own user signs in with its own password only.
  expect((await signIn(first.domain, await registerClient(first.domain), { email, password })).code).toEqual(expect.any(String));
  expect((await signIn(first.domain, await registerClient(first.domain), { email, password: attackerPassword })).status).toBe(401);
  expect((await signIn(second.domain, await registerClient(second.domain), { email, password: attackerPassword })).code).toEqual(expect.any(String));

  // A token of one is refused by the other platform's API for its user.
  const token = (await platform.api.post('/platform/users/login', first.key, { email, password })).body.data.access_token as string;
  expect((await platform.api.get('/me', token)).body.data.workspace.id).toBe(one.body.data.workspaces[0].id);
  expectError(await platform.api.get(`/platform/users/${other.body.data.id}`, token), 403, 'forbidden');
});

test('a realm’s user never signs in through another realm’s domain or OAuth client', async () => {
  const home = await tenantWithDomain();
  const foreign = await tenantWithDomain();
  const email = uniqueEmail('homebody');
  await platform.api.post('/platform/users', home.key, { email, name: 'Home', password });
  const homeClient = await registerClient(home.domain);
  const foreignClient = await registerClient(foreign.domain);
  const rootClient = await registerClient();

  expect((await signIn(home.domain, homeClient, { email, password })).code).toEqual(expect.any(String));
  // Another realm's domain does not know the user, with its own client or the user's realm's.
  expect((await signIn(foreign.domain, foreignClient, { email, password })).status).toBe(401);
  const borrowed = await signIn(foreign.domain, homeClient, { email, password });
  expect(borrowed.status).toBe(400);
  expect(borrowed.html).toContain('This sign-in link is not valid');
  // The platform's own address is the root platform's realm: neither the user nor a tenant's client is known there.
  expect((await signIn(undefined, rootClient, { email, password })).status).toBe(401);
  expect((await signIn(undefined, homeClient, { email, password })).status).toBe(400);
  // And a root-realm client is unknown on a tenant's domain.
  expect((await signIn(home.domain, rootClient, { email, password })).status).toBe(400);

  // An invitation of the home realm is not found on the foreign realm's domain, only on its own.
  const invited = uniqueEmail('invitee');
  await platform.api.post('/platform/users', home.key, { email: invited, name: 'Invited' });
  const link = await invitationLinkTo(platform, invited);
  expect((await fetch(`${platform.running.url}${link.pathname}`, { headers: through(foreign.domain) })).status).toBe(404);
  expect((await answerInvitation(platform, link, password, through(foreign.domain))).status).toBe(404);
  expect((await fetch(`${platform.running.url}${link.pathname}`, { headers: through(home.domain) })).status).toBe(200);
});
