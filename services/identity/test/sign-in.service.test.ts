// VerifyPassword and the password hashes behind it: one error for every failure, and a scrypt
// spent on unknown e-mails too.
import crypto from 'node:crypto';
import { Code } from '@connectrpc/connect';
import { maxConcurrentDerivations, PasswordHasher } from '../src/users/passwords.js';

import { failure, harnessPasswordHashCost, setup, type Harness } from './harness.js';

const passwords = new PasswordHasher();
const hashPassword = (password: string, signal?: AbortSignal) => passwords.hash(password, signal);
const verifyPassword = (password: string, encoded: string) => passwords.verify(password, encoded);
const needsRehash = (encoded: string) => passwords.needsRehash(encoded);
// The queue and the parsing of stored hashes work alike at any cost: those tests hash at the harness's.
const quick = new PasswordHasher(harnessPasswordHashCost);

describe('password hashes', () => {
  test('are self-describing scrypt strings with a fresh salt, verified only by the right password', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    expect(first).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('correct horse battery', first)).toBe(true);
    expect(await verifyPassword('correct horse batterY', first)).toBe(false);
    expect(await verifyPassword('', first)).toBe(false);
  });

  test('a hash of an older cost verifies and asks to be made again; a current one does not', async () => {
    const salt = crypto.randomBytes(16);
    const legacy = ['scrypt', 16384, 8, 1, salt.toString('base64'), crypto.scryptSync('correct horse battery', salt, 32, { N: 16384, r: 8, p: 1 }).toString('base64')].join('$');
    expect(await verifyPassword('correct horse battery', legacy)).toBe(true);
    expect(needsRehash(legacy)).toBe(true);
    expect(needsRehash(await hashPassword('correct horse battery'))).toBe(false);
    expect(needsRehash('bcrypt$2b$10$abc')).toBe(true);
    // A hash stronger than the configured cost is kept: lowering the cost never weakens stored hashes.
    expect(new PasswordHasher(14).needsRehash(await hashPassword('correct horse battery'))).toBe(false);
  });

  test('concurrent hashes run at most two at a time and all complete', async () => {
    let inFlight = 0;
    let most = 0;
    const real = crypto.scrypt;
    const scrypt = jest.spyOn(crypto, 'scrypt').mockImplementation(((...args: Parameters<typeof real>) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      const done = args[args.length - 1] as (error: Error | null, key: Buffer) => void;
      (real as unknown as (...a: unknown[]) => void)(...args.slice(0, -1), (error: Error | null, key: Buffer) => {
        inFlight -= 1;
        done(error, key);
      });
    }) as typeof real);
    try {
      const hashes = await Promise.all(Array.from({ length: 5 }, (_, i) => quick.hash(`password number ${i}`)));
      expect(new Set(hashes).size).toBe(5);
      expect(scrypt).toHaveBeenCalledTimes(5);
      expect(most).toBe(maxConcurrentDerivations);
      expect(await quick.verify('password number 3', hashes[3]!)).toBe(true);
    } finally {
      scrypt.mockRestore();
    }
  });

  test('a hash waiting for its turn is not made once its call is cancelled', async () => {
    const scrypt = jest.spyOn(crypto, 'scrypt');
    const cancelled = new AbortController();
    const busy = Array.from({ length: maxConcurrentDerivations }, (_, i) => quick.hash(`busy password ${i}`));
    const abandoned = quick.hash('abandoned password', cancelled.signal);
    const after = quick.hash('later password');
    cancelled.abort(new Error('the caller gave up'));
    await expect(abandoned).rejects.toThrow('the caller gave up');
    await Promise.all([...busy, after]);
    expect(scrypt).toHaveBeenCalledTimes(maxConcurrentDerivations + 1);
    scrypt.mockRestore();
  });

  test('a damaged or foreign hash verifies nothing and asks for no absurd memory', async () => {
    const good = await quick.hash('correct horse battery');
    const [, , r, p, salt, hash] = good.split('$');
    for (const bad of ['', 'bcrypt$2b$10$abc', `scrypt$1000$${r}$${p}$${salt}$${hash}`, `scrypt$${1 << 24}$${r}$${p}$${salt}$${hash}`, `${good}$extra`, `scrypt$16384$8$1$${salt}$`]) {
      expect(await quick.verify('correct horse battery', bad)).toBe(false);
    }
  });
});

describe('VerifyPassword', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await setup();
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await h.store.close();
  });

  test('answers the user and its active memberships in active workspaces', async () => {
    const acme = await h.newWorkspace('Acme');
    const globex = await h.newWorkspace('Globex');
    const initech = await h.newWorkspace('Initech');
    const hooli = await h.newWorkspace('Hooli');
    const ada = await h.addMember(acme.id, 'owner', { email: 'ada@example.com', password: 'correct horse battery', name: 'Ada' });
    // Ada accepts each invitation with the password she has.
    await h.addMember(globex.id, 'member', { email: 'ada@example.com', password: 'correct horse battery' });
    await h.addMember(initech.id, 'admin', { email: 'ada@example.com', password: 'correct horse battery' });
    await h.addMember(hooli.id, 'admin', { email: 'ada@example.com', password: 'correct horse battery' });
    await h.addMember(initech.id, 'owner');
    await h.client.updateMember({ userId: ada.userId, status: 'suspended' }, h.serviceAccount(initech.id));
    await h.client.setWorkspaceStatus({ workspaceId: hooli.id, status: 'suspended' }, h.gateway);

    const answer = await h.client.verifyPassword({ email: '  ADA@example.com ', password: 'correct horse battery' }, h.gateway);
    expect(answer).toMatchObject({
      userId: ada.userId,
      email: 'ada@example.com',
      name: 'Ada',
      memberships: [
        { workspaceId: acme.id, workspaceName: 'Acme', role: 'owner' },
        { workspaceId: globex.id, workspaceName: 'Globex', role: 'member' },
      ],
    });
  });

  test('a wrong password, an unknown e-mail and a user without password fail alike, each after one scrypt', async () => {
    const acme = await h.newWorkspace();
    await h.addMember(acme.id, 'owner', { email: 'ada@example.com', password: 'correct horse battery' });
    await h.addMember(acme.id, 'member', { email: 'invited@example.com' });
    const scrypt = jest.spyOn(crypto, 'scrypt');
    const attempts = [
      { email: 'ada@example.com', password: 'wrong horse battery' },
      { email: 'nobody@example.com', password: 'correct horse battery' },
      { email: 'invited@example.com', password: 'correct horse battery' },
      { email: 'not an e-mail', password: 'correct horse battery' },
      { email: 'ada@example.com', password: '' },
      { email: 'ada@example.com', password: `correct horse battery${'x'.repeat(1000)}` },
    ];
    for (const attempt of attempts) {
      scrypt.mockClear();
      const refused = await failure(h.client.verifyPassword(attempt, h.gateway));
      expect(refused).toEqual({ code: Code.Unauthenticated, reason: 'unauthorized', message: 'the e-mail or password is wrong', fields: [] });
      expect(scrypt).toHaveBeenCalledTimes(1);
    }
  });

  test('a successful sign-in replaces a hash of an older cost; a failed one leaves it', async () => {
    const acme = await h.newWorkspace();
    const ada = await h.addMember(acme.id, 'owner', { email: 'ada@example.com', password: 'correct horse battery' });
    const salt = crypto.randomBytes(16);
    // Below the harness's cost (harnessPasswordHashCost): the lowest a stored hash may have.
    const legacy = ['scrypt', 1024, 8, 1, salt.toString('base64'), crypto.scryptSync('correct horse battery', salt, 32, { N: 1024, r: 8, p: 1 }).toString('base64')].join('$');
    const current = (await h.store.getUser(ada.userId))!.passwordHash!;
    expect(await h.store.replacePasswordHash(ada.userId, 'not the stored hash', legacy)).toBe(false);
    expect(await h.store.replacePasswordHash(ada.userId, current, legacy)).toBe(true);
    await failure(h.client.verifyPassword({ email: 'ada@example.com', password: 'wrong horse battery' }, h.gateway));
    expect((await h.store.getUser(ada.userId))!.passwordHash).toBe(legacy);
    await h.client.verifyPassword({ email: 'ada@example.com', password: 'correct horse battery' }, h.gateway);
    const rehashed = (await h.store.getUser(ada.userId))!.passwordHash!;
    expect(rehashed.startsWith(`scrypt$${2 ** harnessPasswordHashCost}$8$1$`)).toBe(true);
    expect(await verifyPassword('correct horse battery', rehashed)).toBe(true);
  });

  test('is for platform services only', async () => {
    const acme = await h.newWorkspace();
    await h.addMember(acme.id, 'owner', { email: 'ada@example.com', password: 'correct horse battery' });
    const refused = await failure(h.client.verifyPassword({ email: 'ada@example.com', password: 'correct horse battery' }, h.serviceAccount(acme.id)));
    expect(refused.code).toBe(Code.PermissionDenied);
  });
});
