// What the services write under DATA_DIR (SQLite databases with their WAL files, generated keys,
// the mail spool) is private: directories 0700, files 0600 (issue 12 item 13), on a data
// directory the platform creates itself.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestPlatform, uniqueEmail, type TestPlatform } from './support/platform.js';
import { eventually } from './support/telephony.js';

const parent = mkdtempSync(join(tmpdir(), 'voice-data-files-'));
const dataDir = join(parent, 'data');
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({}, dataDir);
});
afterAll(async () => {
  await platform.close();
  rmSync(parent, { recursive: true, force: true });
});

/** Every path under the directory with its permission bits, the directory itself first. */
function modes(directory: string): Array<{ path: string; directory: boolean; mode: number }> {
  const entries = [{ path: directory, directory: true, mode: statSync(directory).mode & 0o777 }];
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    const stat = statSync(path);
    if (stat.isDirectory()) entries.push(...modes(path));
    else entries.push({ path, directory: false, mode: stat.mode & 0o777 });
  }
  return entries;
}

test('every directory under DATA_DIR is 0700 and every file 0600', async () => {
  // Something in every store, and an invitation e-mail in the spool.
  const { key } = await platform.workspace({ plan: 'enterprise' });
  expect((await platform.api.post('/platform/users', key, { email: uniqueEmail('private'), name: 'Private Files' })).status).toBe(201);
  expect((await platform.api.post('/tools', key, { name: 'private_files', type: 'builtin', config: { type: 'end_call' } })).status).toBe(201);
  await eventually(async () => readdirSync(join(dataDir, 'mail-outbox')).find((name) => name.endsWith('.eml')), 10_000, 'an .eml file');

  const found = modes(dataDir);
  const names = found.map((entry) => entry.path.slice(dataDir.length));
  expect(names).toEqual(expect.arrayContaining(['/identity.sqlite', '/tools.sqlite', '/billing.sqlite', '/keys/encryption.key']));
  expect(names.some((name) => name.endsWith('.sqlite-wal'))).toBe(true);
  expect(found.filter((entry) => entry.mode !== (entry.directory ? 0o700 : 0o600)).map((entry) => `${entry.path} ${entry.mode.toString(8)}`)).toEqual([]);
});
