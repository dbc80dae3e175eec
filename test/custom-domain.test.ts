// Custom domains through the gateway, verified against a real DNS server on loopback: the records
// to set, verification with records missing, wrong and right, removal, scopes and the plan gate.
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { CustomDomainService } from '@voice/proto/voice/platform/v1/custom_domains';
import { callHeaders } from '@voice/runtime/caller';
import { internalSessionManager } from '@voice/runtime/internal';
import { expectError, fieldsOf } from './support/api-client.js';
import { startDnsServer, type DnsServer } from './support/dns-server.js';
import { requestAs } from './support/host-request.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
let dns: DnsServer;
const platformHost = 'voice.example.net';

beforeAll(async () => {
  dns = await startDnsServer();
  platform = await startTestPlatform({ VOICE_DNS_SERVERS: dns.address, VOICE_PUBLIC_URL: `https://${platformHost}` });
});
afterAll(async () => {
  await platform.close();
  await dns.close();
});

const whiteLabel = () => platform.workspace({ plan: 'enterprise' });
const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

test('connecting answers the CNAME and TXT records to set, pending verification', async () => {
  const { key } = await whiteLabel();
  const added = await platform.api.post('/custom-domain', key, { domain: 'Calls.Acme-Voice.example.' });
  expect(added.status).toBe(201);
  const token = added.body.data.dns_records[1].value;
  expect(added.body.data).toEqual({
    domain: 'calls.acme-voice.example',
    status: 'pending_verification',
    dns_records: [
      { type: 'CNAME', name: 'calls.acme-voice.example', value: platformHost },
      { type: 'TXT', name: '_voice-verification.calls.acme-voice.example', value: expect.stringMatching(/^voice-verification=[A-Za-z0-9]{32}$/) },
    ],
    missing: [],
    created_at: expect.stringMatching(iso),
    checked_at: null,
    verified_at: null,
    expires_at: expect.stringMatching(iso),
  });
  // A pending claim lapses seven days after it was made (VOICE_CUSTOM_DOMAIN_CLAIM_DAYS).
  expect(Date.parse(added.body.data.expires_at) - Date.parse(added.body.data.created_at)).toBe(7 * 86_400_000);
  expect((await platform.api.get('/custom-domain', key)).body.data.dns_records[1].value).toBe(token);
  expectError(await platform.api.post('/custom-domain', key, { domain: 'other.acme-voice.example' }), 409, 'conflict');
});

test('a pending claim does not block the real owner: the first to verify wins and the other claims are dropped (issue 12 item 8)', async () => {
  const domain = 'voice.real-owner.example';
  const squatter = await whiteLabel();
  const bystander = await whiteLabel();
  const owner = await whiteLabel();
  const squatted = await platform.api.post('/custom-domain', squatter.key, { domain });
  expect(squatted.status).toBe(201);
  expect((await platform.api.post('/custom-domain', bystander.key, { domain })).status).toBe(201);
  const claimed = await platform.api.post('/custom-domain', owner.key, { domain });
  expect(claimed.status).toBe(201);
  // Each claim proves itself with its own token: the squatter's TXT value is not the owner's.
  const ownerTxt = claimed.body.data.dns_records[1];
  expect(ownerTxt.value).not.toBe(squatted.body.data.dns_records[1].value);

  dns.set(domain, 'CNAME', [platformHost]);
  dns.set(ownerTxt.name, 'TXT', [ownerTxt.value]);
  // The squatter cannot verify: DNS does not carry its token.
  expect((await platform.api.post('/custom-domain/verify', squatter.key, {})).body.data.status).toBe('pending_verification');
  const verified = await platform.api.post('/custom-domain/verify', owner.key, {});
  expect(verified.body.data).toMatchObject({ domain, status: 'active', expires_at: null });

  for (const other of [squatter, bystander]) {
    expectError(await platform.api.get('/custom-domain', other.key), 404, 'not_found');
    expectError(await platform.api.post('/custom-domain/verify', other.key, {}), 404, 'not_found');
    expectError(await platform.api.post('/custom-domain', other.key, { domain }), 409, 'conflict');
  }
  expect((await platform.api.get('/custom-domain', owner.key)).body.data.status).toBe('active');
});

test('concurrent verifications of one domain by two workspaces whose tokens DNS both carries: one wins, the other claim is dropped', async () => {
  const domain = 'voice.contested.example';
  const [first, second] = [await whiteLabel(), await whiteLabel()];
  const tokens = [];
  for (const claimant of [first, second]) tokens.push((await platform.api.post('/custom-domain', claimant.key, { domain })).body.data.dns_records[1]);
  dns.set(domain, 'CNAME', [platformHost]);
  dns.set(tokens[0].name, 'TXT', tokens.map((record) => record.value));
  const answers = await Promise.all([first, second].map((claimant) => platform.api.post('/custom-domain/verify', claimant.key, {})));
  // The loser hears 409 when it was checking DNS as the winner committed, 404 when its claim was already gone.
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
  const lost = answers.find((answer) => answer.status !== 200)!;
  expectError(lost, lost.status, lost.status === 409 ? 'conflict' : 'not_found');
  expect([404, 409]).toContain(lost.status);
  const loser = [first, second][answers.indexOf(lost)]!;
  expectError(await platform.api.get('/custom-domain', loser.key), 404, 'not_found');
});

test('verification reports missing and wrong records, then activates once DNS holds both', async () => {
  const { key } = await whiteLabel();
  const domain = 'voice.bright-dental.example';
  const added = (await platform.api.post('/custom-domain', key, { domain })).body.data;
  const txt = added.dns_records[1];

  const nothing = await platform.api.post('/custom-domain/verify', key, {});
  expect(nothing.status).toBe(200);
  expect(nothing.body.data).toMatchObject({ status: 'pending_verification', checked_at: expect.stringMatching(iso), verified_at: null });
  expect(nothing.body.data.missing).toEqual([
    { type: 'CNAME', name: domain, value: platformHost, found: [] },
    { type: 'TXT', name: txt.name, value: txt.value, found: [] },
  ]);

  dns.set(domain, 'CNAME', ['elsewhere.example.org']);
  dns.set(txt.name, 'TXT', ['voice-verification=not-the-token']);
  const wrong = await platform.api.post('/custom-domain/verify', key, {});
  expect(wrong.body.data.status).toBe('pending_verification');
  expect(wrong.body.data.missing).toEqual([
    { type: 'CNAME', name: domain, value: platformHost, found: ['elsewhere.example.org'] },
    { type: 'TXT', name: txt.name, value: txt.value, found: ['voice-verification=not-the-token'] },
  ]);

  dns.set(domain, 'CNAME', [`${platformHost.toUpperCase()}`]);
  dns.set(txt.name, 'TXT', ['google-site-verification=abc', txt.value]);
  const active = await platform.api.post('/custom-domain/verify', key, {});
  expect(active.body.data).toMatchObject({ status: 'active', missing: [], verified_at: expect.stringMatching(iso) });
  expect(dns.queries).toEqual(expect.arrayContaining([`${domain} CNAME`, `${txt.name} TXT`]));

  // The gateway finds the workspace of an active domain by Host (any case, any port); nobody else may ask.
  const sessions = internalSessionManager(platform.running.services.platformUsers);
  const domains = createClient(CustomDomainService, createConnectTransport({ baseUrl: platform.running.services.platformUsers, httpVersion: '2', sessionManager: sessions }));
  const as = (type: 'internal' | 'service_account') => ({
    headers: callHeaders(platform.signer, { workspaceId: '', principal: { type, id: 'e2e', name: 'e2e' }, scopes: null, requestId: 'e2e' }),
  });
  try {
    const resolved = await domains.resolveCustomDomain({ host: `${domain.toUpperCase()}:443` }, as('internal'));
    expect(resolved).toMatchObject({ workspaceId: expect.stringMatching(/^[0-9a-f-]{36}$/), domain });
    expect((await domains.resolveCustomDomain({ host: 'unknown.example' }, as('internal'))).workspaceId).toBe('');
    await expect(domains.resolveCustomDomain({ host: domain }, as('service_account'))).rejects.toMatchObject({ rawMessage: expect.stringContaining('only the platform') });
  } finally {
    sessions.abort();
  }

  // Records taken away later send the domain back to pending.
  dns.remove(txt.name);
  const lapsed = await platform.api.post('/custom-domain/verify', key, {});
  expect(lapsed.body.data).toMatchObject({ status: 'pending_verification', verified_at: null, expires_at: expect.stringMatching(iso) });
  const resolver = internalSessionManager(platform.running.services.platformUsers);
  const client = createClient(CustomDomainService, createConnectTransport({ baseUrl: platform.running.services.platformUsers, httpVersion: '2', sessionManager: resolver }));
  try {
    expect((await client.resolveCustomDomain({ host: domain }, as('internal'))).workspaceId).toBe('');
  } finally {
    resolver.abort();
  }
});

test('removal frees the domain for another workspace; a workspace without one gets 404', async () => {
  const { key } = await whiteLabel();
  await platform.api.post('/custom-domain', key, { domain: 'app.removable.example' });
  expect((await platform.api.delete('/custom-domain', key)).body).toEqual({ data: { domain: 'app.removable.example', deleted: true } });
  expectError(await platform.api.get('/custom-domain', key), 404, 'not_found');
  expectError(await platform.api.post('/custom-domain/verify', key, {}), 404, 'not_found');
  expectError(await platform.api.delete('/custom-domain', key), 404, 'not_found');
  const next = await whiteLabel();
  expect((await platform.api.post('/custom-domain', next.key, { domain: 'app.removable.example' })).status).toBe(201);
});

test('bad domains are 400 naming the field; the platform\'s own host is refused', async () => {
  const { key } = await whiteLabel();
  for (const domain of ['localhost', '10.0.0.1', 'no_underscores.example', 'example', platformHost, `tenant.${platformHost}`]) {
    const response = await platform.api.post('/custom-domain', key, { domain });
    expectError(response, 400, 'invalid_request');
    expect(fieldsOf(response)).toEqual(['domain']);
  }
  expect(fieldsOf(await platform.api.post('/custom-domain', key, {}))).toEqual(['domain']);
  expect(fieldsOf(await platform.api.post('/custom-domain', key, { domain: 'a.example', www: true }))).toEqual(['www']);
});

test('more bad inputs: not a string, too long, bad labels, wildcards, URLs, ports and IPv6 are 400; IDNs are stored as punycode', async () => {
  const { key } = await whiteLabel();
  const longLabel = `${'a'.repeat(64)}.example`;
  const tooLong = `${Array.from({ length: 64 }, () => 'abc').join('.')}.example`;
  const bad: unknown[] = [42, null, '', '  ', longLabel, tooLong, '-lead.example', 'trail-.example', '*.wild.example', 'https://a.example', 'a.example:8443', '[::1]', '::1', 'a..example', 'sub.localhost'];
  for (const domain of bad) {
    const response = await platform.api.post('/custom-domain', key, { domain });
    expectError(response, 400, 'invalid_request');
    expect(fieldsOf(response)).toEqual(['domain']);
  }
  // Nothing was connected by the refusals.
  expectError(await platform.api.get('/custom-domain', key), 404, 'not_found');

  const idn = await platform.api.post('/custom-domain', key, { domain: 'Anrufe.Bücher.example' });
  expect(idn.status).toBe(201);
  expect(idn.body.data.domain).toBe('anrufe.xn--bcher-kva.example');
  expect(idn.body.data.dns_records[1].name).toBe('_voice-verification.anrufe.xn--bcher-kva.example');
});

test('one record right and one missing stays pending and names only the missing one; a CNAME to a name below the platform host is wrong', async () => {
  const { key } = await whiteLabel();
  const domain = 'half.partial-setup.example';
  const txt = (await platform.api.post('/custom-domain', key, { domain })).body.data.dns_records[1];

  dns.set(txt.name, 'TXT', [txt.value]);
  dns.set(domain, 'CNAME', [`tenant.${platformHost}`]);
  const cnameWrong = await platform.api.post('/custom-domain/verify', key, {});
  expect(cnameWrong.body.data).toMatchObject({ status: 'pending_verification', verified_at: null });
  expect(cnameWrong.body.data.missing).toEqual([{ type: 'CNAME', name: domain, value: platformHost, found: [`tenant.${platformHost}`] }]);

  dns.set(domain, 'CNAME', [platformHost]);
  dns.remove(txt.name);
  const txtMissing = await platform.api.post('/custom-domain/verify', key, {});
  expect(txtMissing.body.data.status).toBe('pending_verification');
  expect(txtMissing.body.data.missing).toEqual([{ type: 'TXT', name: txt.name, value: txt.value, found: [] }]);
});

test('verifying and removing need settings:write; a reader changes nothing', async () => {
  const { id, key } = await whiteLabel();
  await platform.api.post('/custom-domain', key, { domain: 'kept.scoped-domain.example' });
  const reader = await platform.key(id, ['settings:read']);
  expectError(await platform.api.post('/custom-domain/verify', reader, {}), 403, 'forbidden');
  expectError(await platform.api.delete('/custom-domain', reader), 403, 'forbidden');
  expect((await platform.api.get('/custom-domain', key)).body.data).toMatchObject({ domain: 'kept.scoped-domain.example', checked_at: null });
});

test('settings scopes and the white_label feature are required', async () => {
  const starter = await platform.workspace({ plan: 'starter' });
  expectError(await platform.api.get('/custom-domain', starter.key), 403, 'forbidden');
  expectError(await platform.api.post('/custom-domain', starter.key, { domain: 'a.starter.example' }), 403, 'forbidden');
  const { id } = await whiteLabel();
  const reader = await platform.key(id, ['settings:read']);
  expectError(await platform.api.get('/custom-domain', reader), 404, 'not_found');
  expectError(await platform.api.post('/custom-domain', reader, { domain: 'a.reader.example' }), 403, 'forbidden');
  const other = await platform.key(id, ['billing:read']);
  expectError(await platform.api.get('/custom-domain', other), 403, 'forbidden');
  expectError(await platform.api.get('/custom-domain'), 401, 'unauthorized');
});

/** A GET to the gateway as a browser on `host` would send it. */
const getAs = (host: string, path: string) => requestAs(platform.running.url, host, 'GET', path);

test('an active domain is served as its tenant: metadata carry its address, pages its name', async () => {
  const { id, key } = await whiteLabel();
  const domain = 'voice.tenant-served.example';
  const txt = (await platform.api.post('/custom-domain', key, { domain })).body.data.dns_records[1];
  // A domain that is not active is served like the platform.
  expect(JSON.parse((await getAs('pending.tenant-served.example', '/.well-known/oauth-authorization-server')).body).issuer).toBe(`https://${platformHost}`);
  dns.set(domain, 'CNAME', [platformHost]);
  dns.set(txt.name, 'TXT', [txt.value]);
  expect((await platform.api.post('/custom-domain/verify', key, {})).body.data.status).toBe('active');
  const served = `${domain.toUpperCase()}:8443`;
  const metadata = JSON.parse((await getAs(served, '/.well-known/oauth-authorization-server')).body);
  expect(metadata).toMatchObject({ issuer: `https://${domain}`, authorization_endpoint: `https://${domain}/oauth/authorize` });
  const resource = JSON.parse((await getAs(served, '/.well-known/oauth-protected-resource')).body);
  expect(resource).toMatchObject({ resource: `https://${domain}`, authorization_servers: [`https://${domain}`] });
  const page = await getAs(served, '/oauth/authorize');
  expect(page.body).toContain('Customer');
  expect(page.body).not.toContain('Voice platform');
  // The platform's own address is unchanged, and the API answers on the tenant domain with the same paths.
  expect(JSON.parse((await getAs(platformHost, '/.well-known/oauth-authorization-server')).body).issuer).toBe(`https://${platformHost}`);
  expect((await platform.api.get('/me', key)).body.data.workspace.id).toBe(id);
  const unauthenticated = await getAs(served, '/api/v1/me');
  expect(unauthenticated.status).toBe(401);
});

test('while the domain service is down, tenant hosts are served as the platform, and as the tenant again after', async () => {
  const { key } = await whiteLabel();
  const domain = 'voice.outage-tenant.example';
  const txt = (await platform.api.post('/custom-domain', key, { domain })).body.data.dns_records[1];
  dns.set(domain, 'CNAME', [platformHost]);
  dns.set(txt.name, 'TXT', [txt.value]);
  expect((await platform.api.post('/custom-domain/verify', key, {})).body.data.status).toBe('active');
  await platform.running.stopService('platformUsers');
  try {
    const during = await getAs(domain, '/.well-known/oauth-authorization-server');
    expect(during.status).toBe(200);
    expect(JSON.parse(during.body).issuer).toBe(`https://${platformHost}`);
  } finally {
    await platform.running.startService('platformUsers');
  }
  // A failed lookup is not remembered: the next request asks again.
  expect(JSON.parse((await getAs(domain, '/.well-known/oauth-authorization-server')).body).issuer).toBe(`https://${domain}`);
});
