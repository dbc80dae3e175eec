// Invitations over a real SQLite store and the real identity service on loopback (its own SQLite
// files): a first password is set once, other attempts are identity's conflicts.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code, ConnectError } from '@connectrpc/connect';
import { SecretBox } from '@voice/runtime/crypto';
import { errorDetailOf } from '@voice/runtime/errors';
import { newId } from '@voice/runtime/ids';
import { oneUseSecretHash } from '@voice/runtime/signed-tokens';
import { connectDownstreams, type Downstreams } from '../src/downstream/clients.js';
import { Invitations } from '../src/invitations/invitations.js';
import { openSqlitePlatformUsersStore } from '../src/store/sqlite.js';
import type { PlatformUsersStore } from '../src/store/store.js';
import { startRealServices, type RealServices } from './real-services.js';
import { domainRecord } from './store.contract.js';

const codeOf = (error: unknown) => (error instanceof ConnectError ? error.code : undefined);

describe('Invitations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-users-invitations-'));
  const box = new SecretBox(randomBytes(32));
  let services: RealServices;
  let downstreams: Downstreams;
  let platform: { id: string; name: string };
  let store: PlatformUsersStore;
  let now: Date;
  let woken: number;
  let invitations: Invitations;
  let read: Set<string>;
  let counter = 0;

  beforeAll(async () => {
    services = await startRealServices(['identity', 'billing']);
    downstreams = connectDownstreams({ identity: services.urls.identity!, billing: services.urls.billing! }, services.signer);
    const workspace = await services.workspace('Acme <Voice>', 'enterprise');
    platform = { id: workspace.id, name: workspace.name };
  });
  afterAll(async () => {
    downstreams?.close();
    await services?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => {
    read = new Set();
    store = openSqlitePlatformUsersStore(join(dir, `${newId()}.sqlite`));
    now = new Date('2026-11-22T10:00:00.000Z');
    woken = 0;
    invitations = new Invitations({
      store,
      identity: downstreams.identity,
      box,
      publicUrl: 'https://voice.example.net',
      ttlHours: 168,
      mailQueued: () => {
        woken += 1;
      },
      now: () => now,
    });
  });
  afterEach(() => store.close());

  /** Whether identity signs the user in with this password. */
  async function signsIn(email: string, password: string): Promise<boolean> {
    try {
      await services.identity.verifyPassword({ email, password, realmWorkspaceId: platform.id }, services.as(''));
      return true;
    } catch (error) {
      if (codeOf(ConnectError.from(error)) === Code.Unauthenticated) return false;
      throw error;
    }
  }

  /**
   * Registers a customer of the platform without a password (through identity), invites it and
   * reads the token back out of the sealed e-mail, as its reader would.
   */
  async function invite(): Promise<{ userId: string; email: string; token: string; text: string; html: string; subject: string }> {
    const email = `ada.${process.pid}.${++counter}@example.com`;
    const { userId } = await services.customer(platform.id, { email });
    await invitations.invite({ userId, email, name: 'Ada', platform });
    const mail = (await store.dueMail(now.toISOString(), 100)).find((due) => !read.has(due.id));
    read.add(mail!.id);
    const text = box.open(mail!.sealedText!);
    const token = /\/invitations\/([A-Za-z0-9_-]{43})/.exec(text)![1]!;
    return { userId, email, token, text, html: box.open(mail!.sealedHtml!), subject: mail!.subject };
  }

  test('an invitation stores only the hash of the token its sealed e-mail carries, and wakes the relay', async () => {
    const { userId, email, token, text, html, subject } = await invite();
    expect(woken).toBe(1);
    expect(subject).toBe("You're invited to Acme <Voice>");
    expect(text).toContain(`https://voice.example.net/invitations/${token}`);
    expect(text).toContain('2026-11-29T10:00:00Z');
    expect(html).toContain('Acme &lt;Voice&gt;');
    const stored = await store.findInvitationByTokenHash(oneUseSecretHash(token));
    expect(stored).toMatchObject({ userId, platformWorkspaceId: platform.id, email, expiresAt: '2026-11-29T10:00:00.000Z', acceptedAt: null });
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(Object.fromEntries(await store.invitationStatuses([userId]))).toEqual({ [userId]: 'pending' });
  });

  test("the link uses the platform's custom domain only while it is active", async () => {
    await store.insert(domainRecord(platform.id, { domain: 'voice.acme.com' }), now.toISOString());
    expect((await invite()).text).toContain('https://voice.example.net/invitations/');
    await store.recordVerification(platform.id, 'voice.acme.com', { status: 'active', missing: [], checkedAt: now.toISOString(), verifiedAt: now.toISOString(), expiresAt: null });
    expect((await invite()).text).toMatch(/https:\/\/voice\.acme\.com\/invitations\/[A-Za-z0-9_-]{43}/);
  });

  test("the invitation page sees the e-mail, name, expiry and the platform's name as identity has it", async () => {
    const { email, token } = await invite();
    expect(await invitations.describe(token, '', 'req')).toEqual({
      email,
      name: 'Ada',
      platformName: 'Acme <Voice>',
      expiresAt: '2026-11-29T10:00:00.000Z',
      signIn: false,
    });
    // A tenant's domain finds its own realm's invitations only.
    expect((await invitations.describe(token, platform.id, 'req')).email).toBe(email);
    await expect(invitations.describe(token, newId(), 'req')).rejects.toMatchObject({ code: Code.NotFound });
    await expect(invitations.accept(token, 'a long enough password', newId(), 'req')).rejects.toMatchObject({ code: Code.NotFound });
  });

  test('unknown, malformed and expired tokens are not found', async () => {
    const { token } = await invite();
    for (const wrong of ['', 'x', randomBytes(32).toString('base64url'), `${token}x`]) {
      await expect(invitations.describe(wrong, '', 'req')).rejects.toMatchObject({ code: Code.NotFound });
      await expect(invitations.accept(wrong, 'a long enough password', '', 'req')).rejects.toMatchObject({ code: Code.NotFound });
    }
    now = new Date('2026-11-29T10:00:00.000Z');
    await expect(invitations.describe(token, '', 'req')).rejects.toMatchObject({ code: Code.NotFound });
    await expect(invitations.accept(token, 'a long enough password', '', 'req')).rejects.toMatchObject({ code: Code.NotFound });
  });

  test('accepting sets the password in identity once; the invitation is then gone', async () => {
    const { userId, email, token } = await invite();
    const weak = await invitations.accept(token, 'short', '', 'req').catch((error: unknown) => error);
    expect(codeOf(weak)).toBe(Code.InvalidArgument);
    expect(errorDetailOf(weak as ConnectError).fields.map((field) => field.field)).toEqual(['password']);
    expect(await signsIn(email, 'a long enough password')).toBe(false);

    expect((await invitations.accept(token, 'a long enough password', '', 'req')).userId).toBe(userId);
    expect(await signsIn(email, 'a long enough password')).toBe(true);
    expect(Object.fromEntries(await store.invitationStatuses([userId]))).toEqual({ [userId]: 'accepted' });
    await expect(invitations.accept(token, 'another long password', '', 'req')).rejects.toMatchObject({ code: Code.NotFound });
    await expect(invitations.describe(token, '', 'req')).rejects.toMatchObject({ code: Code.NotFound });
    expect([await signsIn(email, 'a long enough password'), await signsIn(email, 'another long password')]).toEqual([true, false]);
  });

  test('of two concurrent accepts one succeeds and the other finds the invitation gone', async () => {
    const { email, token } = await invite();
    const results = await Promise.allSettled([
      invitations.accept(token, 'first long password', '', 'req-1'),
      invitations.accept(token, 'second long password', '', 'req-2'),
    ]);
    const fulfilled = results.filter((result) => result.status === 'fulfilled');
    const rejected = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect(codeOf(rejected[0]!.reason)).toBe(Code.NotFound);
    const [winner, loser] = results[0]!.status === 'fulfilled' ? ['first long password', 'second long password'] : ['second long password', 'first long password'];
    expect([await signsIn(email, winner), await signsIn(email, loser)]).toEqual([true, false]);
    expect((await store.findInvitationByTokenHash(oneUseSecretHash(token)))?.acceptedAt).toBe(now.toISOString());
  });

  test('a user who has a password already (an accept whose marking was lost) gets the invitation closed', async () => {
    const { userId, email, token } = await invite();
    await services.identity.setInitialPassword({ userId, password: 'chosen before' }, services.as(platform.id));
    await expect(invitations.accept(token, 'a long enough password', '', 'req')).rejects.toMatchObject({ code: Code.NotFound });
    expect(Object.fromEntries(await store.invitationStatuses([userId]))).toEqual({ [userId]: 'accepted' });
    expect([await signsIn(email, 'chosen before'), await signsIn(email, 'a long enough password')]).toEqual([true, false]);
  });

  test('identity being down is Unavailable, and the invitation stays usable', async () => {
    const { userId, email, token } = await invite();
    await services.stop('identity');
    try {
      const error = await invitations.accept(token, 'a long enough password', '', 'req').catch((failure: unknown) => failure);
      expect([codeOf(error), (error as ConnectError).rawMessage]).toEqual([Code.Unavailable, 'the identity service is unavailable; retry shortly']);
      expect((await store.findInvitationByTokenHash(oneUseSecretHash(token)))?.acceptedAt).toBeNull();
    } finally {
      await services.start('identity');
    }
    expect((await invitations.accept(token, 'a long enough password', '', 'req')).userId).toBe(userId);
    expect(await signsIn(email, 'a long enough password')).toBe(true);
  });
});
