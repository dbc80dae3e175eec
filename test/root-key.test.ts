// The root platform's last unrestricted key cannot revoke itself, and an operator rotates it the
// way the operations guide says: restart with a new VOICE_ROOT_API_KEY, then revoke the old key.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectError } from './support/api-client.js';
import { newRootKey, startTestPlatform, type TestPlatform } from './support/platform.js';

const dataDir = mkdtempSync(join(tmpdir(), 'voice-root-key-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The ids of the root workspace's active keys without scope restrictions. */
async function unrestrictedKeys(platform: TestPlatform, key: string): Promise<string[]> {
  const listed = await platform.api.get('/api-keys', key);
  expect(listed.status).toBe(200);
  return (listed.body.data as { id: string; scopes: string[] | null }[]).filter((k) => k.scopes === null).map((k) => k.id);
}

test('the last unrestricted root key is 409 to revoke; a restart with a new VOICE_ROOT_API_KEY rotates it', async () => {
  const firstKey = newRootKey();
  let platform = await startTestPlatform({ VOICE_ROOT_API_KEY: firstKey }, dataDir);
  try {
    const [firstId] = await unrestrictedKeys(platform, firstKey);
    expect(firstId).toBeDefined();
    const refused = await platform.api.delete(`/api-keys/${firstId}`, firstKey);
    expectError(refused, 409, 'conflict');
    expect(refused.body.error.message).toContain('VOICE_ROOT_API_KEY');
    expect((await platform.api.get('/me', firstKey)).status).toBe(200);
    // A restricted key of the root workspace may be revoked as any other.
    const restricted = await platform.api.post('/api-keys', firstKey, { name: 'reader', scopes: ['billing:read'] });
    expect((await platform.api.delete(`/api-keys/${restricted.body.data.id}`, firstKey)).status).toBe(200);
  } finally {
    await platform.close();
  }

  // The operator restarts with a new key: it is registered beside the old one.
  const secondKey = newRootKey();
  platform = await startTestPlatform({ VOICE_ROOT_API_KEY: secondKey }, dataDir);
  try {
    for (const key of [firstKey, secondKey]) expect((await platform.api.get('/me', key)).body.data.scopes).toBeNull();
    const both = await unrestrictedKeys(platform, secondKey);
    expect(both).toHaveLength(2);
    const firstListing = (await platform.api.get('/api-keys', firstKey)).body.data as { id: string; key_hint: string }[];
    const old = firstListing.find((k) => k.key_hint.endsWith(firstKey.slice(-4)))!;
    expect(both).toContain(old.id);

    expect((await platform.api.delete(`/api-keys/${old.id}`, secondKey)).status).toBe(200);
    expectError(await platform.api.get('/me', firstKey), 401, 'unauthorized');
    expect((await platform.api.get('/me', secondKey)).status).toBe(200);
    const [newId] = await unrestrictedKeys(platform, secondKey);
    expectError(await platform.api.delete(`/api-keys/${newId}`, secondKey), 409, 'conflict');
    expect((await platform.api.get('/me', secondKey)).status).toBe(200);
  } finally {
    await platform.close();
  }

  // Restarting with the same key again registers nothing new.
  platform = await startTestPlatform({ VOICE_ROOT_API_KEY: secondKey }, dataDir);
  try {
    expect(await unrestrictedKeys(platform, secondKey)).toHaveLength(1);
  } finally {
    await platform.close();
  }
});

test('two root keys revoked at the same moment: one goes, the last one stays', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'voice-root-race-'));
  const [a, b] = [newRootKey(), newRootKey()];
  try {
    await (await startTestPlatform({ VOICE_ROOT_API_KEY: a }, dir)).close();
    const platform = await startTestPlatform({ VOICE_ROOT_API_KEY: b }, dir);
    try {
      const ids = await unrestrictedKeys(platform, a);
      expect(ids).toHaveLength(2);
      const answers = await Promise.all([platform.api.delete(`/api-keys/${ids[0]}`, a), platform.api.delete(`/api-keys/${ids[1]}`, b)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const alive = (await Promise.all([a, b].map((key) => platform.api.get('/me', key)))).filter((answer) => answer.status === 200);
      expect(alive).toHaveLength(1);
    } finally {
      await platform.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
