// The behaviour every IdentityStore must have, written once and run against each adapter.
// Each test gets a store of its own: the root workspace is global to a store.
import { newId, sha256Hex } from '@voice/runtime';
import type { ApiKeyRecord, IdentityStore, WorkspaceRecord } from '../src/store/store.js';

let clock = Date.parse('2026-01-01T00:00:00.000Z');
const tick = (): string => new Date((clock += 1000)).toISOString();

export function workspaceRecord(overrides: Partial<WorkspaceRecord> = {}): WorkspaceRecord {
  return {
    id: newId(),
    name: `Workspace ${newId().slice(0, 8)}`,
    plan: 'pro',
    status: 'active',
    parentWorkspaceId: null,
    createdAt: tick(),
    ...overrides,
  };
}

export function apiKeyRecord(workspaceId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const secret = `svc_${newId()}`;
  return {
    id: newId(),
    workspaceId,
    name: 'ci key',
    principalId: newId(),
    keyHash: sha256Hex(secret),
    keyHint: `svc_…${secret.slice(-4)}`,
    scopes: ['calls:read', 'leads:write'],
    status: 'active',
    createdAt: tick(),
    lastUsedAt: null,
    ...overrides,
  };
}

/**
 * Asserts that the store refused the write. Not `rejects.toThrow()`: better-sqlite3 builds its
 * errors in the module realm that first loaded it, which in a reused Jest worker is not this
 * file's, so they fail Jest's Error check although they were thrown.
 */
async function expectRefused(write: Promise<unknown>): Promise<void> {
  let refused = false;
  try {
    await write;
  } catch {
    refused = true;
  }
  expect(refused).toBe(true);
}

export function identityStoreContract(open: () => Promise<IdentityStore>): void {
  let store: IdentityStore;

  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => {
    await store.close();
  });

  /** The root (with its unrestricted key) and two ordinary workspaces under it. */
  async function seed(): Promise<{ root: WorkspaceRecord; rootKey: ApiKeyRecord; workspace: WorkspaceRecord; other: WorkspaceRecord }> {
    const root = workspaceRecord({ name: 'Root platform', plan: 'enterprise' });
    const rootKey = apiKeyRecord(root.id, { name: 'root', scopes: null });
    expect(await store.bootstrapRoot(root, rootKey)).toBe('created');
    const workspace = workspaceRecord({ parentWorkspaceId: root.id });
    const other = workspaceRecord({ parentWorkspaceId: root.id, plan: 'starter' });
    await store.createWorkspace(workspace);
    await store.createWorkspace(other);
    return { root, rootKey, workspace, other };
  }

  describe('root bootstrap', () => {
    test('an empty store has no root', async () => {
      expect(await store.rootWorkspace()).toBeUndefined();
    });

    test('creates the root and its key once, then answers exists and changes nothing', async () => {
      const root = workspaceRecord({ name: 'Root platform', plan: 'enterprise' });
      const key = apiKeyRecord(root.id, { name: 'root', scopes: null });
      expect(await store.bootstrapRoot(root, key)).toBe('created');
      expect(await store.rootWorkspace()).toEqual(root);
      expect(await store.getWorkspace(root.id)).toEqual(root);
      expect(await store.findApiKeyByHash(key.keyHash)).toEqual(key);

      const second = workspaceRecord({ name: 'Another root' });
      const secondKey = apiKeyRecord(second.id, { scopes: null });
      expect(await store.bootstrapRoot(second, secondKey)).toBe('exists');
      expect(await store.rootWorkspace()).toEqual(root);
      expect(await store.getWorkspace(second.id)).toBeUndefined();
      expect(await store.findApiKeyByHash(secondKey.keyHash)).toBeUndefined();
    });

    test('of concurrent bootstraps exactly one creates a root', async () => {
      const attempts = Array.from({ length: 6 }, () => {
        const root = workspaceRecord({ plan: 'enterprise' });
        return { root, key: apiKeyRecord(root.id, { scopes: null }) };
      });
      const outcomes = await Promise.all(attempts.map(({ root, key }) => store.bootstrapRoot(root, key)));
      expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'exists')).toHaveLength(5);
      const winner = attempts[outcomes.indexOf('created')]!;
      expect(await store.rootWorkspace()).toEqual(winner.root);
      for (const attempt of attempts) {
        const won = attempt === winner;
        expect(await store.getWorkspace(attempt.root.id)).toEqual(won ? attempt.root : undefined);
        expect(await store.findApiKeyByHash(attempt.key.keyHash)).toEqual(won ? attempt.key : undefined);
      }
    });

    test('a second workspace without a parent is refused', async () => {
      await seed();
      await expectRefused(store.createWorkspace(workspaceRecord({ parentWorkspaceId: null })));
    });
  });

  describe('workspaces', () => {
    test('a created workspace reads back whole; the root stays the root', async () => {
      const { root, workspace, other } = await seed();
      expect(await store.getWorkspace(workspace.id)).toEqual(workspace);
      expect(await store.getWorkspace(other.id)).toEqual(other);
      expect(await store.rootWorkspace()).toEqual(root);
      expect(await store.getWorkspace(newId())).toBeUndefined();
    });

    test('a suspended workspace keeps its status', async () => {
      const { root } = await seed();
      const suspended = workspaceRecord({ parentWorkspaceId: root.id, status: 'suspended' });
      await store.createWorkspace(suspended);
      expect(await store.getWorkspace(suspended.id)).toEqual(suspended);
    });
  });

  describe('API keys', () => {
    test('a created key is found by its hash, whole', async () => {
      const { workspace } = await seed();
      const key = apiKeyRecord(workspace.id);
      await store.createApiKey(key);
      expect(await store.findApiKeyByHash(key.keyHash)).toEqual(key);
      expect(await store.findApiKeyByHash(sha256Hex('svc_unknown'))).toBeUndefined();
    });

    test('null scopes round-trip as null, empty scopes as empty, and scope order is kept', async () => {
      const { rootKey, workspace } = await seed();
      expect((await store.findApiKeyByHash(rootKey.keyHash))?.scopes).toBeNull();
      const unrestricted = apiKeyRecord(workspace.id, { scopes: null });
      const none = apiKeyRecord(workspace.id, { scopes: [] });
      const ordered = apiKeyRecord(workspace.id, { scopes: ['settings:write', 'calls:read', 'billing:read'] });
      for (const key of [unrestricted, none, ordered]) await store.createApiKey(key);
      expect((await store.findApiKeyByHash(unrestricted.keyHash))?.scopes).toBeNull();
      expect((await store.findApiKeyByHash(none.keyHash))?.scopes).toEqual([]);
      expect((await store.findApiKeyByHash(ordered.keyHash))?.scopes).toEqual(['settings:write', 'calls:read', 'billing:read']);
      const listed = await store.listApiKeys(workspace.id, { limit: 50, offset: 0 });
      expect(listed.keys.find((k) => k.id === unrestricted.id)?.scopes).toBeNull();
    });

    test('a key hash is unique: a second key with the same hash is refused', async () => {
      const { workspace, other } = await seed();
      const key = apiKeyRecord(workspace.id);
      await store.createApiKey(key);
      await expectRefused(store.createApiKey(apiKeyRecord(other.id, { keyHash: key.keyHash })));
      expect(await store.findApiKeyByHash(key.keyHash)).toEqual(key);
      expect((await store.listApiKeys(other.id, { limit: 50, offset: 0 })).total).toBe(0);
    });

    test('list gives only the active keys of the workspace, newest first, with the total and paging', async () => {
      const { workspace, other } = await seed();
      const created: ApiKeyRecord[] = [];
      for (let i = 0; i < 5; i += 1) {
        const key = apiKeyRecord(workspace.id, { name: `key ${i}` });
        await store.createApiKey(key);
        created.push(key);
      }
      await store.createApiKey(apiKeyRecord(other.id));
      expect(await store.revokeApiKey(workspace.id, created[1]!.id)).toBe(true);
      const newestFirst = [created[4]!, created[3]!, created[2]!, created[0]!];

      const all = await store.listApiKeys(workspace.id, { limit: 50, offset: 0 });
      expect(all.total).toBe(4);
      expect(all.keys).toEqual(newestFirst);

      const page = await store.listApiKeys(workspace.id, { limit: 2, offset: 1 });
      expect(page.total).toBe(4);
      expect(page.keys.map((k) => k.id)).toEqual([created[3]!.id, created[2]!.id]);

      const beyond = await store.listApiKeys(workspace.id, { limit: 10, offset: 10 });
      expect(beyond).toEqual({ keys: [], total: 4 });

      const otherList = await store.listApiKeys(other.id, { limit: 50, offset: 0 });
      expect(otherList.total).toBe(1);
      expect(otherList.keys.every((k) => k.workspaceId === other.id)).toBe(true);

      expect(await store.listApiKeys(newId(), { limit: 50, offset: 0 })).toEqual({ keys: [], total: 0 });
    });

    test('keys created in the same instant are ordered by id, newest id first', async () => {
      const { workspace } = await seed();
      const at = tick();
      const keys = Array.from({ length: 3 }, () => apiKeyRecord(workspace.id, { createdAt: at }));
      for (const key of keys) await store.createApiKey(key);
      const listed = await store.listApiKeys(workspace.id, { limit: 50, offset: 0 });
      expect(listed.keys.map((k) => k.id)).toEqual(keys.map((k) => k.id).sort().reverse());
    });

    test('revoke works only in the key’s own workspace, and only once', async () => {
      const { workspace, other } = await seed();
      const key = apiKeyRecord(workspace.id);
      await store.createApiKey(key);
      expect(await store.revokeApiKey(other.id, key.id)).toBe(false);
      expect((await store.findApiKeyByHash(key.keyHash))?.status).toBe('active');
      expect(await store.revokeApiKey(workspace.id, key.id)).toBe(true);
      expect(await store.revokeApiKey(workspace.id, key.id)).toBe(false);
      expect(await store.revokeApiKey(workspace.id, newId())).toBe(false);
      // A revoked key is still found by its hash (so authentication can refuse it), marked revoked.
      expect(await store.findApiKeyByHash(key.keyHash)).toEqual({ ...key, status: 'revoked' });
      expect((await store.listApiKeys(workspace.id, { limit: 50, offset: 0 })).total).toBe(0);
    });

    test('touch sets lastUsedAt and nothing else', async () => {
      const { workspace } = await seed();
      const key = apiKeyRecord(workspace.id);
      const bystander = apiKeyRecord(workspace.id);
      await store.createApiKey(key);
      await store.createApiKey(bystander);
      const first = tick();
      await store.touchApiKey(key.id, first);
      expect(await store.findApiKeyByHash(key.keyHash)).toEqual({ ...key, lastUsedAt: first });
      const second = tick();
      await store.touchApiKey(key.id, second);
      expect((await store.findApiKeyByHash(key.keyHash))?.lastUsedAt).toBe(second);
      expect(await store.findApiKeyByHash(bystander.keyHash)).toEqual(bystander);
      await expect(store.touchApiKey(newId(), tick())).resolves.toBeUndefined();
    });
  });
}
