// VerifyPassword and the password hashes behind it: one error for every failure, and a scrypt
// spent on unknown e-mails too.
import crypto from 'node:crypto';
import { Code } from '@connectrpc/connect';
import { hashPassword, verifyPassword } from '../src/passwords.js';
import { failure, setup, type Harness } from './harness.js';

describe('password hashes', () => {
  test('are self-describing scrypt strings with a fresh salt, verified only by the right password', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('correct horse battery', first)).toBe(true);
    expect(await verifyPassword('correct horse batterY', first)).toBe(false);
    expect(await verifyPassword('', first)).toBe(false);
  });

  test('a damaged or foreign hash verifies nothing and asks for no absurd memory', async () => {
    const good = await hashPassword('correct horse battery');
    const [, , r, p, salt, hash] = good.split('$');
    for (const bad of ['', 'bcrypt$2b$10$abc', `scrypt$1000$${r}$${p}$${salt}$${hash}`, `scrypt$${1 << 24}$${r}$${p}$${salt}$${hash}`, `${good}$extra`, `scrypt$16384$8$1$${salt}$`]) {
      expect(await verifyPassword('correct horse battery', bad)).toBe(false);
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
    await h.addMember(globex.id, 'member', { email: 'ada@example.com' });
    await h.addMember(initech.id, 'admin', { email: 'ada@example.com' });
    await h.addMember(hooli.id, 'admin', { email: 'ada@example.com' });
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

  test('is for platform services only', async () => {
    const acme = await h.newWorkspace();
    await h.addMember(acme.id, 'owner', { email: 'ada@example.com', password: 'correct horse battery' });
    const refused = await failure(h.client.verifyPassword({ email: 'ada@example.com', password: 'correct horse battery' }, h.serviceAccount(acme.id)));
    expect(refused.code).toBe(Code.PermissionDenied);
  });
});
