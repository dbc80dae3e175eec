// The root platform's last unrestricted key cannot revoke itself, and an operator rotates it the
// way the operations guide says: restart with a new VOICE_ROOT_API_KEY, then revoke the old key.
// Each test restarts the platform once on the same data directory, in order.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectError } from './support/api-client.js';
import { newRootKey, startTestPlatform, type TestPlatform } from './support/platform.js';

/** The root workspace's active keys without scope restrictions. */
async function unrestrictedKeys(platform: TestPlatform, key: string): Promise<{ id: string; key_hint: string }[]> {
  const listed = await platform.api.get('/api-keys', key);
  expect(listed.status).toBe(200);
  return (listed.body.data as { id: string; key_hint: string; scopes: string[] | null }[]).filter((k) => k.scopes === null);
}

/** Runs `work` against the platform started on `dir` with `rootKey`, and stops it. */
async function startedWith<T>(dir: string, rootKey: string, work: (platform: TestPlatform) => Promise<T>): Promise<T> {
  const platform = await startTestPlatform({ VOICE_ROOT_API_KEY: rootKey }, dir);
  try {
    return await work(platform);
  } finally {
    await platform.close();
  }
}

describe('rotation', () => {
  const dir = mkdtempSync(join(tmpdir(), 'voice-root-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const firstKey = newRootKey();
  const secondKey = newRootKey();

  test('the last unrestricted root key is 409 to revoke and keeps working; restricted root keys are revoked as any', () =>
    startedWith(dir, firstKey, async (platform) => {
      const [only] = await unrestrictedKeys(platform, firstKey);
      const refused = await platform.api.delete(`/api-keys/${only!.id}`, firstKey);
      expectError(refused, 409, 'conflict');
      expect(refused.body.error.message).toContain('VOICE_ROOT_API_KEY');
      expect((await platform.api.get('/me', firstKey)).status).toBe(200);
      const restricted = await platform.api.post('/api-keys', firstKey, { name: 'reader', scopes: ['billing:read'] });
      expect((await platform.api.delete(`/api-keys/${restricted.body.data.id}`, firstKey)).status).toBe(200);
    }));

  test('a restart with a new VOICE_ROOT_API_KEY registers it beside the old one, which can then be revoked', () =>
    startedWith(dir, secondKey, async (platform) => {
      for (const key of [firstKey, secondKey]) expect((await platform.api.get('/me', key)).body.data.scopes).toBeNull();
      const both = await unrestrictedKeys(platform, secondKey);
      expect(both).toHaveLength(2);
      const old = both.find((k) => k.key_hint.endsWith(firstKey.slice(-4)))!;
      expect((await platform.api.delete(`/api-keys/${old.id}`, secondKey)).status).toBe(200);
      expectError(await platform.api.get('/me', firstKey), 401, 'unauthorized');
      expect((await platform.api.get('/me', secondKey)).status).toBe(200);
      const [remaining] = await unrestrictedKeys(platform, secondKey);
      expectError(await platform.api.delete(`/api-keys/${remaining!.id}`, secondKey), 409, 'conflict');
      expect((await platform.api.get('/me', secondKey)).status).toBe(200);
    }));

  test('restarting with the same key again registers nothing new', () =>
    startedWith(dir, secondKey, async (platform) => {
      expect(await unrestrictedKeys(platform, secondKey)).toHaveLength(1);
    }));
});

describe('two root keys revoked at the same moment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'voice-root-race-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const [a, b] = [newRootKey(), newRootKey()];
  beforeAll(() => startedWith(dir, a, async () => undefined));

  test('one goes, the last one stays', () =>
    startedWith(dir, b, async (platform) => {
      const keys = await unrestrictedKeys(platform, a);
      expect(keys).toHaveLength(2);
      // Revoked with a third key, so neither request can lose its own credential to the other.
      const admin = (await platform.api.post('/api-keys', a, { name: 'admin', scopes: ['settings:write'] })).body.data.key as string;
      const answers = await Promise.all(keys.map((key) => platform.api.delete(`/api-keys/${key.id}`, admin)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const alive = (await Promise.all([a, b].map((key) => platform.api.get('/me', key)))).filter((answer) => answer.status === 200);
      expect(alive).toHaveLength(1);
    }));
});
