// Tier 2: PlatformUserService through Connect's router transport, behind the signed-caller check as
// in production, over a real SQLite store, calling the real identity and billing services on
// loopback (our own parts, as they run). Mail is only queued here: the relay is server.test.ts's.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code, type ConnectRouter } from '@connectrpc/connect';
import { PlatformUserService } from '@voice/proto/voice/platform/v1/platform_users';
import { SecretBox } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import { connectDownstreams, type Downstreams } from '../src/downstream/clients.js';
import { Invitations } from '../src/invitations/invitations.js';
import { PlatformUserServiceImpl } from '../src/service.js';
import { openSqlitePlatformUsersStore } from '../src/store/sqlite.js';
import type { PlatformUsersStore } from '../src/store/store.js';
import { failure, routerClient } from '../../runtime/test/service-tiers.js';
import { startRealServices, type RealServices } from './real-services.js';

const dir = mkdtempSync(join(tmpdir(), 'platform-users-service-'));
let services: RealServices;
let store: PlatformUsersStore;
let downstreams: Downstreams;
let tier: ReturnType<typeof routerClient<typeof PlatformUserService>>;
let mailQueued = 0;
let counter = 0;

/** An e-mail address no other test of this run uses (identity's users are global). */
const unique = (local: string) => `${local}.${process.pid}.${++counter}@example.com`;

beforeAll(async () => {
  services = await startRealServices(['identity', 'billing']);
  store = openSqlitePlatformUsersStore(join(dir, 'platform-users.sqlite'));
  downstreams = connectDownstreams({ identity: services.urls.identity!, billing: services.urls.billing! }, services.signer);
  const invitations = new Invitations({
    store,
    identity: downstreams.identity,
    box: new SecretBox(randomBytes(32)),
    publicUrl: 'https://voice.example.net',
    ttlHours: 24,
    mailQueued: () => void (mailQueued += 1),
    now: () => new Date(),
  });
  const routes = (router: ConnectRouter) =>
    router.service(PlatformUserService, new PlatformUserServiceImpl({ identity: downstreams.identity, billing: downstreams.billing, store, invitations }));
  tier = routerClient(PlatformUserService, routes, { signer: services.signer });
});
afterAll(async () => {
  downstreams?.close();
  await store?.close();
  await services?.close();
  rmSync(dir, { recursive: true, force: true });
});

const platformAdmin = (platformId: string) => tier.as({ workspaceId: platformId, principal: { type: 'user', id: newId(), name: 'platform admin' }, scopes: null });

test('a user registered without a password is invited: the e-mail is queued with the invitation, and the user is listed as invited', async () => {
  const platformId = (await services.workspace('Acme Voice', 'enterprise')).id;
  const email = unique('ada');
  const queuedBefore = mailQueued;
  const { user } = await tier.client.registerPlatformUser({ email, name: 'Ada' }, platformAdmin(platformId));
  expect(user).toMatchObject({ email, name: 'Ada', invitationStatus: 'pending' });
  expect(mailQueued).toBe(queuedBefore + 1);
  expect((await store.dueMail(new Date(Date.now() + 1000).toISOString(), 100)).filter((mail) => mail.to === email)).toHaveLength(1);
  const listed = await tier.client.listPlatformUsers({}, platformAdmin(platformId));
  expect(listed.users.map((listedUser) => [listedUser.email, listedUser.invitationStatus])).toEqual([[email, 'pending']]);
  expect((await tier.client.getPlatformUser({ userId: user!.id }, platformAdmin(platformId))).user?.email).toBe(email);
});

test('another platform’s user does not exist for a platform', async () => {
  const mine = (await services.workspace('Mine', 'enterprise')).id;
  const theirs = (await services.workspace('Theirs', 'enterprise')).id;
  const { user } = await tier.client.registerPlatformUser({ email: unique('bob'), name: 'Bob', password: 'a long enough password' }, platformAdmin(theirs));
  expect(await failure(tier.client.getPlatformUser({ userId: user!.id }, platformAdmin(mine)))).toMatchObject({ code: Code.NotFound, reason: 'not_found' });
  expect((await tier.client.listPlatformUsers({}, platformAdmin(mine))).total).toBe(0);
});

test('unsigned calls, workspaces without white_label and invalid fields are refused with their reasons', async () => {
  expect((await failure(tier.client.listPlatformUsers({}))).code).toBe(Code.Unauthenticated);
  const plain = (await services.workspace('Plain', 'pro')).id;
  expect(await failure(tier.client.listPlatformUsers({}, platformAdmin(plain)))).toMatchObject({ code: Code.PermissionDenied, reason: 'forbidden' });
  const platformId = (await services.workspace('Acme Voice', 'enterprise')).id;
  const invalid = await failure(tier.client.registerPlatformUser({ email: 'nope', name: '', password: 'short', plan: 'gold' }, platformAdmin(platformId)));
  expect(invalid).toMatchObject({ code: Code.InvalidArgument, reason: 'invalid_request' });
  expect(invalid.fields.map((field) => field.field)).toEqual(['email', 'name', 'password', 'plan']);
  expect((await tier.client.listPlatformUsers({}, platformAdmin(platformId))).total).toBe(0);
});

test('concurrent registrations of different users each create one, each with one invitation', async () => {
  const platformId = (await services.workspace('Acme Voice', 'enterprise')).id;
  const emails = Array.from({ length: 6 }, (_, i) => unique(`user${i}`));
  await Promise.all(emails.map((email) => tier.client.registerPlatformUser({ email, name: 'User' }, platformAdmin(platformId))));
  const listed = await tier.client.listPlatformUsers({ limit: 50 }, platformAdmin(platformId));
  expect(listed.total).toBe(6);
  expect(listed.users.map((user) => user.email).sort()).toEqual([...emails].sort());
  const queued = await store.dueMail(new Date(Date.now() + 1000).toISOString(), 100);
  for (const email of emails) expect(queued.filter((mail) => mail.to === email)).toHaveLength(1);
});
