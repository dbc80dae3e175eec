// Password hashes at the cost OWASP recommends now (scrypt N=2^17, r=8, p=1), the default of
// VOICE_PASSWORD_HASH_COST, and a hash made at the older cost rehashed on the user's next
// successful sign-in: both verify, since every hash records its parameters.
import { randomBytes, scryptSync } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expectError } from './support/api-client.js';
import { startTestPlatform, uniqueEmail, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
beforeAll(async () => {
  // The default cost, which other suites lower for speed.
  platform = await startTestPlatform({ VOICE_PASSWORD_HASH_COST: '' });
});
afterAll(() => platform.close());

const password = 'correct horse battery';

// Each hash at the production cost takes ~0.5 s of CPU alone; on a machine whose cores are shared
// (CI runs beside other work) a test of several hashes can take far longer than the default 30 s.
jest.setTimeout(120_000);

/** Reads or writes a user's stored hash in identity's embedded database, as a pre-upgrade database would hold it. */
function withIdentityDb<T>(work: (db: Database.Database) => T): T {
  const db = new Database(join(platform.dataDir, 'identity.sqlite'), { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    return work(db);
  } finally {
    db.close();
  }
}
const storedHash = (userId: string): string =>
  withIdentityDb((db) => (db.prepare('SELECT password_hash FROM users WHERE id = ?').get(userId) as { password_hash: string }).password_hash);

/** The hash the platform made before the upgrade: scrypt N=2^14. */
function legacyHash(secret: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(secret, salt, 32, { N: 16384, r: 8, p: 1 });
  return ['scrypt', 16384, 8, 1, salt.toString('base64'), hash.toString('base64')].join('$');
}

test('a new password is hashed with scrypt N=2^17, r=8, p=1', async () => {
  const { key } = await platform.workspace({ plan: 'enterprise', scopes: ['platform:write'] });
  const created = await platform.api.post('/platform/users', key, { email: uniqueEmail(), name: 'New Hash', password });
  expect(created.status).toBe(201);
  expect(storedHash(created.body.data.id)).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
});

test('a hash of the old cost still verifies and is replaced on the next successful sign-in only', async () => {
  const { key } = await platform.workspace({ plan: 'enterprise', scopes: ['platform:write'] });
  const email = uniqueEmail();
  const created = await platform.api.post('/platform/users', key, { email, name: 'Old Hash', password });
  const userId = created.body.data.id as string;
  const legacy = legacyHash(password);
  withIdentityDb((db) => db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(legacy, userId));

  expectError(await platform.api.post('/platform/users/login', key, { email, password: 'not the password' }), 401, 'unauthorized');
  expect(storedHash(userId)).toBe(legacy);

  expect((await platform.api.post('/platform/users/login', key, { email, password })).status).toBe(200);
  const rehashed = storedHash(userId);
  expect(rehashed).toMatch(/^scrypt\$131072\$8\$1\$/);
  expect((await platform.api.post('/platform/users/login', key, { email, password })).status).toBe(200);
  expect(storedHash(userId)).toBe(rehashed);
  expectError(await platform.api.post('/platform/users/login', key, { email, password: 'not the password' }), 401, 'unauthorized');
});
