// Tier 2: CustomDomainService through Connect's router transport, behind the signed-caller check as
// in production, over a real SQLite store and a real DNS server on loopback. (PlatformUserService
// calls identity and billing over the network: its tier is server.test.ts.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code, type ConnectRouter } from '@connectrpc/connect';
import { CustomDomainService } from '@voice/proto/voice/platform/v1/custom_domains';
import { newId } from '@voice/runtime/ids';
import { ResolverDnsLookup } from '../src/custom-domains/dns-lookup.js';
import { CustomDomainServiceImpl } from '../src/service.js';
import { openSqlitePlatformUsersStore } from '../src/store/sqlite.js';
import { failure, routerClient } from '../../runtime/test/service-tiers.js';
import { startDnsServer, type DnsServer } from '../../../test/support/dns-server.js';

const platformHost = 'voice.example.net';
const dir = mkdtempSync(join(tmpdir(), 'platform-users-service-'));
const store = openSqlitePlatformUsersStore(join(dir, 'platform-users.sqlite'));
let dns: DnsServer;
let tier: ReturnType<typeof routerClient<typeof CustomDomainService>>;

beforeAll(async () => {
  dns = await startDnsServer();
  const routes = (router: ConnectRouter) =>
    router.service(
      CustomDomainService,
      new CustomDomainServiceImpl({ store, dns: new ResolverDnsLookup([dns.address]), platformHost, claimDays: 7, now: () => new Date() }),
    );
  tier = routerClient(CustomDomainService, routes);
});
afterAll(async () => {
  await dns.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const domainName = () => `app-${newId().slice(0, 8)}.customer.example`;

test('a workspace connects a domain, verifies it once DNS has the records, and the platform resolves it', async () => {
  const workspace = tier.inWorkspace(newId());
  const domain = domainName();
  const added = (await tier.client.addCustomDomain({ domain }, workspace)).domain!;
  expect(added).toMatchObject({ domain, status: 'pending_verification' });
  const pending = (await tier.client.verifyCustomDomain({}, workspace)).domain!;
  expect(pending.status).toBe('pending_verification');
  expect(pending.missing.length).toBeGreaterThan(0);
  for (const record of added.dnsRecords) dns.set(record.name, record.type as 'TXT' | 'CNAME', [record.value]);
  expect((await tier.client.verifyCustomDomain({}, workspace)).domain).toMatchObject({ domain, status: 'active', missing: [] });
  expect(await tier.client.resolveCustomDomain({ host: `${domain.toUpperCase()}:443` }, tier.internal)).toMatchObject({ domain });
});

test('bad input is refused with the field and changes nothing; another workspace sees no domain', async () => {
  const workspace = tier.inWorkspace(newId());
  expect(await failure(tier.client.addCustomDomain({ domain: 'not a domain' }, workspace))).toMatchObject({
    code: Code.InvalidArgument,
    reason: 'invalid_request',
    fields: [{ field: 'domain', issue: expect.any(String) }],
  });
  expect((await failure(tier.client.getCustomDomain({}, workspace))).code).toBe(Code.NotFound);
  await tier.client.addCustomDomain({ domain: domainName() }, workspace);
  const other = tier.inWorkspace(newId());
  expect((await failure(tier.client.getCustomDomain({}, other))).code).toBe(Code.NotFound);
  expect((await failure(tier.client.removeCustomDomain({}, other))).code).toBe(Code.NotFound);
});

test('calls need a signed caller; only the platform resolves hosts', async () => {
  expect((await failure(tier.client.getCustomDomain({}))).code).toBe(Code.Unauthenticated);
  expect(await failure(tier.client.resolveCustomDomain({ host: 'x.example' }, tier.inWorkspace(newId())))).toMatchObject({ code: Code.PermissionDenied });
});

test('of concurrent claims of one domain by one workspace exactly one is created', async () => {
  const workspace = tier.inWorkspace(newId());
  const domain = domainName();
  const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => tier.client.addCustomDomain({ domain }, workspace)));
  expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
});
