// Tier 3: PlatformUserService as it runs: the real platform-users service over HTTP/2 on loopback, calling
// the real identity and billing services (each with its own SQLite files), e-mailing through a
// real SMTP server on loopback. What the service did is read back from identity and billing.
import { Code, ConnectError, createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport, type Http2SessionManager } from '@connectrpc/connect-node';
import PostalMime from 'postal-mime';
import { platformClientId } from '@voice/identity';
import { PlatformUserService } from '@voice/proto/voice/platform/v1/platform_users';
import type { Principal } from '@voice/runtime/caller';
import { errorDetailOf } from '@voice/runtime/errors';
import { newId } from '@voice/runtime/ids';
import { internalSessionManager } from '@voice/runtime/internal';
import { startRealServices, type RealServices } from './real-services.js';
import { startSmtpServer, type TestSmtpServer } from './smtp-server.js';
import { waitFor } from './wait.js';

const failure = async (call: Promise<unknown>): Promise<ConnectError> => {
  try {
    await call;
  } catch (error) {
    return ConnectError.from(error);
  }
  throw new Error('the call succeeded');
};

describe('PlatformUserService', () => {
  let smtp: TestSmtpServer;
  let services: RealServices;
  let sessions: Http2SessionManager;
  let client: Client<typeof PlatformUserService>;
  let platformId: string;
  let counter = 0;

  /** An e-mail address no other test of this run uses (identity's users are global). */
  const unique = (local: string) => `${local}.${process.pid}.${++counter}@example.com`;
  const as = (workspaceId: string, principal: Principal = { type: 'user', id: newId(), name: 'platform admin' }) => services.as(workspaceId, principal);
  const asPlatform = () => as(platformId);
  const asGateway = () => as('', { type: 'internal', id: 'gateway', name: 'gateway' });

  /** Who identity says an access token belongs to (a refusal for a token that does not work). */
  const authenticate = async (accessToken: string) => {
    const answer = await services.identity.authenticate({ credential: accessToken }, services.as(''));
    return { principal: answer.principal?.type, userId: answer.principal?.id, workspaceId: answer.workspace?.id };
  };
  /** The mail the SMTP server received for an address, parsed. */
  const mailTo = async (address: string) => {
    await waitFor(() => smtp.received.some((mail) => mail.to.includes(address)), 5_000, `the e-mail to ${address}`);
    return PostalMime.parse(smtp.received.find((mail) => mail.to.includes(address))!.raw);
  };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    services = await startRealServices(['identity', 'billing', 'platformUsers'], {
      VOICE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      VOICE_PUBLIC_URL: 'https://voice.example.net',
    });
    sessions = internalSessionManager(services.urls.platformUsers!);
    client = createClient(PlatformUserService, createConnectTransport({ baseUrl: services.urls.platformUsers!, httpVersion: '2', sessionManager: sessions }));
  });
  afterAll(async () => {
    sessions?.abort();
    await services?.close();
    await smtp?.close();
  });

  // Every test gets a white-label platform of its own, so listings and wallets start empty.
  beforeEach(async () => {
    platformId = (await services.workspace('Acme Voice', 'enterprise')).id;
  });

  test('a workspace without white_label is refused', async () => {
    for (const plan of ['starter', 'pro'] as const) {
      const plain = await services.workspace('Plain', plan);
      const error = await failure(client.listPlatformUsers({}, as(plain.id)));
      expect([error.code, errorDetailOf(error).reason]).toEqual([Code.PermissionDenied, 'forbidden']);
    }
  });

  test('registration with a password: identity creates the customer on the default plan, named workspace, and no e-mail goes out', async () => {
    const email = unique('ada');
    const { user } = await client.registerPlatformUser({ email: ` ${email.toUpperCase()} `, name: 'Ada', password: 'a long enough password' }, asPlatform());
    expect(user).toMatchObject({ email, name: 'Ada', status: 'active', invitationStatus: 'none' });
    expect(user!.workspaces).toEqual([expect.objectContaining({ name: 'Ada', plan: 'starter', status: 'active', role: 'owner' })]);
    expect(user!.workspaces[0]!.balance).toBeUndefined();

    // Identity has the customer under this platform, with the password.
    const { customer } = await services.identity.getCustomer({ platformWorkspaceId: platformId, userId: user!.id }, services.as(platformId));
    expect(customer).toMatchObject({ email, hasPassword: true });
    expect(customer!.workspaces.map(({ workspace }) => [workspace?.id, workspace?.parentWorkspaceId])).toEqual([[user!.workspaces[0]!.id, platformId]]);
    expect((await services.identity.verifyPassword({ email, password: 'a long enough password', realmWorkspaceId: platformId }, services.as(''))).userId).toBe(user!.id);

    // An invitation queued after it reaches the SMTP server alone.
    const invited = unique('later');
    await client.registerPlatformUser({ email: invited, name: 'Later' }, asPlatform());
    await mailTo(invited);
    expect(smtp.received.filter((mail) => mail.to.includes(email))).toHaveLength(0);
  });

  test('registration lists every invalid field', async () => {
    const error = await failure(client.registerPlatformUser({ email: 'nope', name: '', password: 'short', plan: 'gold' }, asPlatform()));
    expect(error.code).toBe(Code.InvalidArgument);
    expect(errorDetailOf(error).fields.map((field) => field.field)).toEqual(['email', 'name', 'password', 'plan']);
  });

  // The cap "never above the platform's own plan" cannot be crossed with real identity: only
  // enterprise includes white_label, and nothing ranks above enterprise. What is reachable: a
  // platform hands out its own plan, and a pro workspace cannot hand out enterprise at all.
  test('a platform hands out plans up to its own; a pro workspace hands out none', async () => {
    const { user } = await client.registerPlatformUser({ email: unique('ada'), name: 'Ada', password: 'a long enough password', plan: 'enterprise' }, asPlatform());
    expect(user!.workspaces.map((workspace) => workspace.plan)).toEqual(['enterprise']);
    const pro = await services.workspace('Pro platform', 'pro');
    const error = await failure(client.registerPlatformUser({ email: unique('grace'), name: 'Grace', plan: 'enterprise' }, as(pro.id)));
    expect([error.code, error.rawMessage]).toEqual([Code.PermissionDenied, "this workspace's plan does not include the white_label feature"]);
    expect((await services.identity.listCustomers({ platformWorkspaceId: pro.id, limit: 10 }, services.as(pro.id))).total).toBe(0);
  });

  test('an e-mail the platform’s realm has a user for is invited to own the new workspace, signing in with its own password', async () => {
    const email = unique('ada');
    const first = await client.registerPlatformUser({ email, name: 'Ada Lovelace', password: 'a long enough password' }, asPlatform());
    const again = await client.registerPlatformUser({ email, name: 'Someone', password: 'chosen by the platform' }, asPlatform());
    expect(again.user).toMatchObject({ id: first.user!.id, name: 'Someone', invitationStatus: 'pending' });
    const mail = await mailTo(email);
    expect(mail.subject).toBe("You're invited to Acme Voice");
    const token = /https:\/\/voice\.example\.net\/invitations\/([\w-]{43})/.exec(mail.text ?? '')![1]!;
    expect((await client.getInvitation({ token }, services.as(''))).invitation).toMatchObject({ email, signIn: true });
    expect(errorDetailOf(await failure(client.acceptInvitation({ token, password: 'chosen by the platform' }, services.as('')))).fields).toEqual([
      { field: 'password', issue: 'is not this account’s password' },
    ]);
    await client.acceptInvitation({ token, password: 'a long enough password' }, services.as(''));
    const shown = (await client.getPlatformUser({ userId: first.user!.id }, asPlatform())).user!;
    expect(shown).toMatchObject({ name: 'Ada Lovelace' });
    expect(shown.workspaces).toHaveLength(2);
  });

  test('registration without a password invites by e-mail; the invitation is pending until accepted', async () => {
    const email = unique('grace');
    const { user } = await client.registerPlatformUser({ email, name: 'Grace', plan: 'pro' }, asPlatform());
    expect(user).toMatchObject({ invitationStatus: 'pending' });
    const mail = await mailTo(email);
    expect(mail.subject).toBe("You're invited to Acme Voice");
    const token = /https:\/\/voice\.example\.net\/invitations\/([\w-]{43})/.exec(mail.text ?? '')![1]!;

    const forbidden = await failure(client.getInvitation({ token }, asPlatform()));
    expect(forbidden.code).toBe(Code.PermissionDenied);
    const { invitation } = await client.getInvitation({ token }, asGateway());
    expect(invitation).toMatchObject({ email, name: 'Grace', platformName: 'Acme Voice' });

    expect(await client.acceptInvitation({ token, password: 'a long enough password' }, asGateway())).toMatchObject({ email });
    const { users } = await client.listPlatformUsers({}, asPlatform());
    expect(users.map((listed) => [listed.email, listed.invitationStatus])).toEqual([[email, 'accepted']]);
    expect((await failure(client.acceptInvitation({ token, password: 'another long password' }, asGateway()))).code).toBe(Code.NotFound);
    const { tokens } = await client.loginPlatformUser({ email, password: 'a long enough password' }, asPlatform());
    expect(await authenticate(tokens!.accessToken)).toEqual({ principal: 'user', userId: user!.id, workspaceId: user!.workspaces[0]!.id });
  });

  test('listing: the query is bounded, users are active unless every workspace is suspended', async () => {
    const one = await services.customer(platformId, { email: unique('one'), plans: ['starter', 'pro'], statuses: ['suspended', 'active'] });
    const two = await services.customer(platformId, { email: unique('two'), plans: ['starter'], statuses: ['suspended'] });
    const other = await services.workspace('Other', 'enterprise');
    await services.customer(other.id, { email: unique('elsewhere') });
    const { users, total } = await client.listPlatformUsers({ limit: 10 }, asPlatform());
    expect(total).toBe(2);
    expect(Object.fromEntries(users.map((user) => [user.email, [user.status, user.invitationStatus]]))).toEqual({
      [one.email]: ['active', 'none'],
      [two.email]: ['suspended', 'none'],
    });
    const found = await client.listPlatformUsers({ query: two.email.split('@')[0]! }, asPlatform());
    expect([found.total, found.users.map((user) => user.id)]).toEqual([1, [two.userId]]);
    expect((await failure(client.listPlatformUsers({ query: 'x'.repeat(201) }, asPlatform()))).code).toBe(Code.InvalidArgument);
  });

  test("the detail carries each workspace's balance, as billing holds it for that workspace", async () => {
    const customer = await services.customer(platformId, { email: unique('ada'), plans: ['starter', 'pro'] });
    await services.fund(customer.workspaceIds[0]!, 12_5000n);
    await services.fund(customer.workspaceIds[1]!, 3n);
    const { user } = await client.getPlatformUser({ userId: customer.userId }, asPlatform());
    expect(user!.workspaces.map((workspace) => [workspace.id, workspace.balance?.creditUnits, workspace.balance?.minuteUnits])).toEqual([
      [customer.workspaceIds[0], 12_5000n, 0n],
      [customer.workspaceIds[1], 3n, 0n],
    ]);
  });

  test("a malformed id, an unknown user and another platform's user are all not found", async () => {
    const other = await services.workspace('Other', 'enterprise');
    const elsewhere = await services.customer(other.id, { email: unique('x') });
    for (const userId of ['not-a-uuid', newId(), elsewhere.userId]) {
      const error = await failure(client.getPlatformUser({ userId }, asPlatform()));
      expect([error.code, error.rawMessage]).toEqual([Code.NotFound, 'user not found']);
    }
  });

  test('tokens are issued for the oldest active workspace; a fully suspended user gets none', async () => {
    const customer = await services.customer(platformId, { email: unique('ada'), plans: ['starter', 'pro', 'pro'], statuses: ['suspended', 'active', 'active'] });
    const { tokens } = await client.issuePlatformUserToken({ userId: customer.userId }, asPlatform());
    expect(tokens).toMatchObject({ userId: customer.userId, workspaceId: customer.workspaceIds[1], tokenType: 'Bearer', expiresIn: 3600, clientId: platformClientId });
    expect(await authenticate(tokens!.accessToken)).toEqual({ principal: 'user', userId: customer.userId, workspaceId: customer.workspaceIds[1] });
    // The refresh token works with the client named.
    const refreshed = await services.identity.refreshAccessToken({ clientId: tokens!.clientId, refreshToken: tokens!.refreshToken }, services.as(''));
    expect((await authenticate(refreshed.tokens!.accessToken)).workspaceId).toBe(customer.workspaceIds[1]);

    const suspended = await services.customer(platformId, { email: unique('sus'), statuses: ['suspended'] });
    const error = await failure(client.issuePlatformUserToken({ userId: suspended.userId }, asPlatform()));
    expect([error.code, error.rawMessage]).toEqual([Code.FailedPrecondition, 'the user is suspended']);
  });

  test('login: every mismatch is the same error, the tenant included', async () => {
    const ada = await services.customer(platformId, { email: unique('ada'), password: 'right password 1' });
    const otherPlatform = (await services.workspace('Other', 'enterprise')).id;
    const grace = await services.customer(otherPlatform, { email: unique('grace'), password: 'right password 2' });
    const attempts = [
      client.loginPlatformUser({ email: ada.email, password: 'wrong password' }, asPlatform()),
      client.loginPlatformUser({ email: unique('nobody'), password: 'right password 1' }, asPlatform()),
      client.loginPlatformUser({ email: grace.email, password: 'right password 2' }, asPlatform()),
      client.loginPlatformUser({ email: ada.email, password: 'right password 1', tenantWorkspaceId: otherPlatform }, asPlatform()),
    ];
    for (const attempt of attempts) {
      const error = await failure(attempt);
      expect([error.code, error.rawMessage, errorDetailOf(error).reason]).toEqual([Code.Unauthenticated, 'the e-mail or password is wrong', 'unauthorized']);
    }
    const { tokens } = await client.loginPlatformUser({ email: ada.email, password: 'right password 1', tenantWorkspaceId: platformId }, asPlatform());
    expect(await authenticate(tokens!.accessToken)).toEqual({ principal: 'user', userId: ada.userId, workspaceId: ada.workspaceIds[0] });
  });

  test('logout revokes in every workspace and sums the tokens', async () => {
    const customer = await services.customer(platformId, { email: unique('ada'), plans: ['starter', 'pro'] });
    const first = (await client.issuePlatformUserToken({ userId: customer.userId }, asPlatform())).tokens!;
    const second = await services.identity.issueUserTokens({ workspaceId: customer.workspaceIds[1]!, userId: customer.userId }, services.as(platformId));
    expect((await authenticate(second.accessToken)).workspaceId).toBe(customer.workspaceIds[1]);

    // An access and a refresh token in each of the two workspaces.
    expect(await client.logoutPlatformUser({ userId: customer.userId }, asPlatform())).toMatchObject({ revokedTokens: 4 });
    for (const accessToken of [first.accessToken, second.accessToken]) expect((await failure(authenticate(accessToken))).code).toBe(Code.Unauthenticated);
    expect(await client.logoutPlatformUser({ userId: customer.userId }, asPlatform())).toMatchObject({ revokedTokens: 0 });
  });

  test('suspending suspends every workspace of the user; reactivating brings them back', async () => {
    const customer = await services.customer(platformId, { email: unique('ada'), plans: ['starter', 'pro'] });
    const { tokens } = await client.issuePlatformUserToken({ userId: customer.userId }, asPlatform());
    const { user } = await client.setPlatformUserStatus({ userId: customer.userId, status: 'suspended' }, asPlatform());
    expect(user!.status).toBe('suspended');
    expect(user!.workspaces.map((workspace) => workspace.status)).toEqual(['suspended', 'suspended']);
    for (const workspaceId of customer.workspaceIds) {
      expect((await services.identity.getWorkspace({ id: workspaceId }, services.as(''))).workspace?.status).toBe('suspended');
    }
    expect((await failure(authenticate(tokens!.accessToken))).code).toBe(Code.Unauthenticated);

    const reactivated = await client.setPlatformUserStatus({ userId: customer.userId, status: 'active' }, asPlatform());
    expect([reactivated.user!.status, reactivated.user!.workspaces.map((workspace) => workspace.status)]).toEqual(['active', ['active', 'active']]);
    expect((await client.issuePlatformUserToken({ userId: customer.userId }, asPlatform())).tokens?.workspaceId).toBe(customer.workspaceIds[0]);
    const error = await failure(client.setPlatformUserStatus({ userId: customer.userId, status: 'frozen' }, asPlatform()));
    expect(errorDetailOf(error).fields.map((field) => field.field)).toEqual(['status']);
  });

  test('credits move to the user and back, in both ledgers', async () => {
    const customer = await services.customer(platformId, { email: unique('ada'), plans: ['starter', 'pro'] });
    const userWorkspace = customer.workspaceIds[0]!;
    await services.fund(platformId, 100_0000n);
    const out = await client.transferPlatformCredits({ userId: customer.userId, creditUnits: 30_0000n, description: 'welcome' }, asPlatform());
    expect(out).toMatchObject({ userId: customer.userId, workspaceId: userWorkspace, creditUnits: 30_0000n, description: 'welcome', replayed: false });
    expect(out.platformEntry).toMatchObject({ workspaceId: platformId, kind: 'transfer_out', amount: { creditUnits: -30_0000n }, reference: `platform_user:${customer.userId}` });
    expect(out.userEntry).toMatchObject({ workspaceId: userWorkspace, kind: 'transfer_in', balanceAfter: { creditUnits: 30_0000n } });

    const back = await client.transferPlatformCredits({ userId: customer.userId, creditUnits: -10_0000n }, asPlatform());
    expect(back.platformEntry).toMatchObject({ workspaceId: platformId, kind: 'transfer_in', amount: { creditUnits: 10_0000n } });
    expect(back.userEntry).toMatchObject({ workspaceId: userWorkspace, kind: 'transfer_out', balanceAfter: { creditUnits: 20_0000n } });

    // Billing's own books agree: the wallets, and the user's ledger (newest first).
    expect([await services.balance(platformId), await services.balance(userWorkspace), await services.balance(customer.workspaceIds[1]!)]).toEqual([
      80_0000n,
      20_0000n,
      0n,
    ]);
    expect((await services.ledger(userWorkspace)).map((entry) => [entry.id, entry.kind, entry.amount?.creditUnits, entry.reference])).toEqual([
      [back.userEntry!.id, 'transfer_out', -10_0000n, `platform_user:${customer.userId}`],
      [out.userEntry!.id, 'transfer_in', 30_0000n, `platform_user:${customer.userId}`],
    ]);
  });

  test('a wallet that would go below zero is a conflict that names the side, and nothing moves', async () => {
    const customer = await services.customer(platformId, { email: unique('ada') });
    const toUser = await failure(client.transferPlatformCredits({ userId: customer.userId, creditUnits: 1n }, asPlatform()));
    expect([toUser.code, errorDetailOf(toUser).reason]).toEqual([Code.FailedPrecondition, 'conflict']);
    expect(toUser.rawMessage).toMatch(/platform's wallet.*nothing was moved/);
    const back = await failure(client.transferPlatformCredits({ userId: customer.userId, creditUnits: -1n }, asPlatform()));
    expect([back.code, errorDetailOf(back).reason]).toEqual([Code.FailedPrecondition, 'conflict']);
    expect(back.rawMessage).toMatch(/user's wallet.*nothing was moved/);
    expect([await services.balance(platformId), await services.balance(customer.workspaceIds[0]!)]).toEqual([0n, 0n]);
    expect([await services.ledger(platformId), await services.ledger(customer.workspaceIds[0]!)]).toEqual([[], []]);
  });

  test('an Idempotency-Key replays the same transfer and refuses another body', async () => {
    const customer = await services.customer(platformId, { email: unique('ada') });
    await services.fund(platformId, 100n);
    const request = { userId: customer.userId, creditUnits: 40n, description: 'once', idempotencyKey: 'key-1' };
    const first = await client.transferPlatformCredits(request, asPlatform());
    const again = await client.transferPlatformCredits(request, asPlatform());
    expect([first.replayed, again.replayed]).toEqual([false, true]);
    expect(again.userEntry?.id).toBe(first.userEntry?.id);
    expect([await services.balance(platformId), await services.balance(customer.workspaceIds[0]!)]).toEqual([60n, 40n]);
    expect((await services.ledger(customer.workspaceIds[0]!)).map((entry) => entry.id)).toEqual([first.userEntry!.id]);
    const other = await failure(client.transferPlatformCredits({ ...request, creditUnits: 41n }, asPlatform()));
    expect([other.code, other.rawMessage]).toEqual([Code.FailedPrecondition, 'this Idempotency-Key was already used with a different request body']);
    expect(await services.balance(platformId)).toBe(60n);

    // The key is the platform's own: another platform using it moves its own credits.
    const otherPlatform = (await services.workspace('Other', 'enterprise')).id;
    const otherCustomer = await services.customer(otherPlatform, { email: unique('grace') });
    await services.fund(otherPlatform, 100n);
    const theirs = await client.transferPlatformCredits({ ...request, userId: otherCustomer.userId }, as(otherPlatform));
    expect([theirs.replayed, await services.balance(otherPlatform)]).toEqual([false, 60n]);
  });

  test('transfer amounts and descriptions are bounded', async () => {
    const customer = await services.customer(platformId, { email: unique('ada') });
    for (const creditUnits of [0n, 10n ** 15n + 1n, -(10n ** 15n) - 1n]) {
      const error = await failure(client.transferPlatformCredits({ userId: customer.userId, creditUnits }, asPlatform()));
      expect(errorDetailOf(error).fields.map((field) => field.field)).toEqual(['amount']);
    }
    const error = await failure(client.transferPlatformCredits({ userId: customer.userId, creditUnits: 1n, description: 'd'.repeat(501) }, asPlatform()));
    expect(errorDetailOf(error).fields.map((field) => field.field)).toEqual(['description']);
  });

  test('identity or billing being down is Unavailable, never an internal error; both come back', async () => {
    const customer = await services.customer(platformId, { email: unique('ada') });
    try {
      await services.stop('billing');
      const billingDown = await failure(client.getPlatformUser({ userId: customer.userId }, asPlatform()));
      expect([billingDown.code, billingDown.rawMessage]).toEqual([Code.Unavailable, 'the billing service is unavailable; retry shortly']);
      await services.stop('identity');
      const identityDown = await failure(client.listPlatformUsers({}, asPlatform()));
      expect([identityDown.code, identityDown.rawMessage]).toEqual([Code.Unavailable, 'the identity service is unavailable; retry shortly']);
    } finally {
      await services.start('identity');
      await services.start('billing');
    }
    const { user } = await client.getPlatformUser({ userId: customer.userId }, asPlatform());
    expect(user!.workspaces.map((workspace) => workspace.balance?.creditUnits)).toEqual([0n]);
  });
});
