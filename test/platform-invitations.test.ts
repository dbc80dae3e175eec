// Invitations and tenant domains: registering without a password e-mails an invitation through
// a real SMTP server on loopback; the link's page sets the password; on a tenant's active domain
// the link and the login belong to that tenant. The embedded mode writes e-mails to a directory.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import { expectError } from './support/api-client.js';
import { startDnsServer, type DnsServer } from './support/dns-server.js';
import { requestAs } from './support/host-request.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';
import { startTestPlatform, uniqueEmail, type TestPlatform } from './support/platform.js';
import { eventually } from './support/telephony.js';

const platformHost = 'voice.example.net';
let platform: TestPlatform;
let smtp: SmtpSink;
let dns: DnsServer;

beforeAll(async () => {
  smtp = await startSmtpSink();
  dns = await startDnsServer();
  platform = await startTestPlatform({
    VOICE_SMTP_URL: smtp.url,
    VOICE_MAIL_FROM: 'accounts@voice.example.net',
    VOICE_PUBLIC_URL: `https://${platformHost}`,
    VOICE_DNS_SERVERS: dns.address,
  });
});
afterAll(async () => {
  await platform.close();
  await smtp.close();
  await dns.close();
});

const password = 'correct horse battery';
const whiteLabel = () => platform.workspace({ plan: 'enterprise', scopes: ['platform:write', 'settings:write'] });

/** The invitation link in an e-mail's text part. */
const linkIn = (text: string | undefined): URL => new URL(/https:\/\/\S+\/invitations\/[A-Za-z0-9_-]+/.exec(text ?? '')![0]);

/** The invitation page on the gateway for a link (whatever host the link names). */
const pageOf = (link: URL, method = 'GET', form?: Record<string, string>) =>
  fetch(`${platform.running.url}${link.pathname}`, {
    method,
    headers: form ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
    body: form ? new URLSearchParams(form) : undefined,
  });

test('registering without a password e-mails an invitation whose page sets the password', async () => {
  const { key } = await whiteLabel();
  const email = uniqueEmail('invited');
  const created = await platform.api.post('/platform/users', key, { email, name: 'Ivy <Invited> & Co' });
  expect(created.status).toBe(201);
  expect(created.body.data).toMatchObject({ email, status: 'active', invitation_status: 'pending' });
  expectError(await platform.api.post('/platform/users/login', key, { email, password }), 401, 'unauthorized');

  const mail = await smtp.messageTo(email);
  expect(mail.envelopeFrom).toBe('accounts@voice.example.net');
  expect(mail.parsed.subject).toBe("You're invited to Customer");
  expect(mail.parsed.from?.address).toBe('accounts@voice.example.net');
  const link = linkIn(mail.parsed.text);
  expect(link.origin).toBe(`https://${platformHost}`);
  expect(mail.parsed.text).toContain('Ivy <Invited> & Co');
  expect(mail.parsed.html).toContain('Ivy &lt;Invited&gt; &amp; Co');
  expect(mail.parsed.html).toContain(link.href);

  const form = await pageOf(link);
  expect(form.status).toBe(200);
  expect(form.headers.get('referrer-policy')).toBe('no-referrer');
  expect(form.headers.get('cache-control')).toBe('no-store');
  const html = await form.text();
  expect(html).toContain(email);
  expect(html).toContain('Ivy &lt;Invited&gt; &amp; Co');

  const mismatch = await pageOf(link, 'POST', { password, password_confirmation: `${password}!` });
  expect(mismatch.status).toBe(400);
  expect(await mismatch.text()).toContain('The two passwords do not match');
  expectError(await platform.api.post('/platform/users/login', key, { email, password }), 401, 'unauthorized');
  expect((await platform.api.get(`/platform/users/${created.body.data.id}`, key)).body.data.invitation_status).toBe('pending');

  const weak = await pageOf(link, 'POST', { password: 'short', password_confirmation: 'short' });
  expect(weak.status).toBe(400);
  expect(await weak.text()).toContain('10 to 200 characters');
  expectError(await platform.api.post('/platform/users/login', key, { email, password: 'short' }), 401, 'unauthorized');

  const accepted = await pageOf(link, 'POST', { password, password_confirmation: password });
  expect(accepted.status).toBe(200);
  const done = await accepted.text();
  expect(done).toContain('Your account is ready');
  expect(done).toContain('What next');
  expect(done).toContain('href="/docs"');
  expect((await platform.api.post('/platform/users/login', key, { email, password })).status).toBe(200);
  expect((await platform.api.get(`/platform/users/${created.body.data.id}`, key)).body.data.invitation_status).toBe('accepted');

  // The link works once.
  expect((await pageOf(link)).status).toBe(404);
  expect((await pageOf(link, 'POST', { password: 'another good password', password_confirmation: 'another good password' })).status).toBe(404);
  expect((await platform.api.post('/platform/users/login', key, { email, password: 'another good password' })).status).toBe(401);
});

test('an unknown or malformed invitation token is the same 404 page', async () => {
  for (const path of ['/invitations/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/invitations/x', '/invitations/%00']) {
    const response = await fetch(`${platform.running.url}${path}`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('This invitation is not valid');
  }
});

test('two concurrent acceptances of one invitation: exactly one sets the password', async () => {
  const { key } = await whiteLabel();
  const email = uniqueEmail('invited');
  await platform.api.post('/platform/users', key, { email, name: 'Racer' });
  const link = linkIn((await smtp.messageTo(email)).parsed.text);
  const passwords = Array.from({ length: 6 }, (_, i) => `racing password ${i}`);
  const answers = await Promise.all(passwords.map((secret) => pageOf(link, 'POST', { password: secret, password_confirmation: secret })));
  const winners = passwords.filter((_, i) => answers[i]!.status === 200);
  expect(winners).toHaveLength(1);
  for (const answer of answers.filter((answer) => answer.status !== 200)) expect([404, 409]).toContain(answer.status);
  for (const secret of passwords) {
    const status = (await platform.api.post('/platform/users/login', key, { email, password: secret })).status;
    expect(status).toBe(secret === winners[0] ? 200 : 401);
  }
});

describe('a tenant with an active custom domain', () => {
  let tenant: { id: string; key: string };
  const domain = 'app.bright-reseller.example';

  beforeAll(async () => {
    tenant = await whiteLabel();
    const txt = (await platform.api.post('/custom-domain', tenant.key, { domain })).body.data.dns_records[1];
    dns.set(domain, 'CNAME', [platformHost]);
    dns.set(txt.name, 'TXT', [txt.value]);
    expect((await platform.api.post('/custom-domain/verify', tenant.key, {})).body.data.status).toBe('active');
  });

  test('invitation links point at the tenant’s domain', async () => {
    const email = uniqueEmail('invited');
    await platform.api.post('/platform/users', tenant.key, { email, name: 'Tenant User' });
    const link = linkIn((await smtp.messageTo(email)).parsed.text);
    expect(link.host).toBe(domain);
    const served = await requestAs(platform.running.url, domain, 'GET', link.pathname);
    expect(served.status).toBe(200);
    expect(served.body).toContain(email);
  });

  test('login on the tenant’s domain finds only that tenant’s users', async () => {
    const email = uniqueEmail('invited');
    await platform.api.post('/platform/users', tenant.key, { email, name: 'Tenant User', password });
    const other = await whiteLabel();
    const otherEmail = uniqueEmail('invited');
    await platform.api.post('/platform/users', other.key, { email: otherEmail, name: 'Other User', password });

    const onTenant = (key: string, who: string) => requestAs(platform.running.url, domain, 'POST', '/api/v1/platform/users/login', { key, json: { email: who, password } });
    const ok = await onTenant(tenant.key, email);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).data.access_token).toMatch(/^svc_at_/);
    // Another platform's key and user on this tenant's domain: nobody is found.
    const foreign = await onTenant(other.key, otherEmail);
    expect(foreign.status).toBe(401);
    expect(JSON.parse(foreign.body).error.code).toBe('unauthorized');
    // On the platform's own address that platform's user signs in as usual.
    expect((await platform.api.post('/platform/users/login', other.key, { email: otherEmail, password })).status).toBe(200);
  });
});

test('without SMTP the embedded mode writes each invitation to the data directory’s mail outbox', async () => {
  const embedded = await startTestPlatform({ VOICE_PUBLIC_URL: `https://${platformHost}` });
  try {
    const { key } = await embedded.workspace({ plan: 'enterprise', scopes: ['platform:write'] });
    const email = uniqueEmail('invited');
    expect((await embedded.api.post('/platform/users', key, { email, name: 'Offline User' })).status).toBe(201);
    const outbox = join(embedded.dataDir, 'mail-outbox');
    const file = await eventually(async () => readdirSync(outbox).find((name) => name.endsWith('.eml')), 10_000, 'an .eml file');
    expect(statSync(join(outbox, file)).mode & 0o777).toBe(0o600);
    const parsed = await PostalMime.parse(readFileSync(join(outbox, file)));
    expect(parsed.to?.[0]?.address).toBe(email);
    expect(linkIn(parsed.text).origin).toBe(`https://${platformHost}`);
  } finally {
    await embedded.close();
  }
});
