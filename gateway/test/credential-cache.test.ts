// The gateway's cache of Authenticate answers: hits within the ttl, one load per credential at
// a time, and revocation that wins over every answer fetched before it.
import { CredentialCache } from '../src/auth/credential-cache.js';
import type { AuthContext } from '../src/auth/auth-context.js';

function authContext(credentialId: string, workspaceId = 'ws-1', platformIds: string[] = ['root']): AuthContext {
  return {
    principal: { type: 'service_account', id: `principal-${credentialId}`, name: 'key' },
    workspace: { id: workspaceId, name: 'Acme', plan: 'pro', features: ['mcp'], white_label: false, status: 'active', created_at: null },
    scopes: ['calls:read'],
    credentialId,
    platformIds,
    audience: '',
  };
}

/** A load whose answers the test releases (or fails) when it chooses; every call is counted. */
function deferredLoad(auth: AuthContext, ttlSeconds = 60) {
  const waiting: { resolve: (value: { auth: AuthContext; ttlSeconds: number }) => void; reject: (error: Error) => void }[] = [];
  const calls = { count: 0 };
  const load = () => {
    calls.count += 1;
    return new Promise<{ auth: AuthContext; ttlSeconds: number }>((resolve, reject) => void waiting.push({ resolve, reject }));
  };
  return {
    load,
    calls,
    release: () => waiting.splice(0).forEach(({ resolve }) => resolve({ auth, ttlSeconds })),
    fail: (error: Error) => waiting.splice(0).forEach(({ reject }) => reject(error)),
  };
}

/** A load that answers at once and counts its calls. */
function countingLoad(auth: AuthContext, ttlSeconds = 60) {
  const load = jest.fn(async () => ({ auth, ttlSeconds }));
  return load;
}

describe('CredentialCache', () => {
  let now: number;
  const clock = () => now;
  beforeEach(() => {
    now = 1_000_000;
  });

  test('a second resolve within the ttl is a hit; the load runs once', async () => {
    const cache = new CredentialCache(100, clock);
    const auth = authContext('key-1');
    const load = countingLoad(auth, 60);
    expect(await cache.resolve('svc_secret', load)).toBe(auth);
    now += 59_999;
    expect(await cache.resolve('svc_secret', load)).toBe(auth);
    expect(load).toHaveBeenCalledTimes(1);
    expect(cache.size).toBe(1);
  });

  test('after the ttl the answer is loaded again', async () => {
    const cache = new CredentialCache(100, clock);
    const load = countingLoad(authContext('key-1'), 60);
    await cache.resolve('svc_secret', load);
    now += 60_000;
    await cache.resolve('svc_secret', load);
    expect(load).toHaveBeenCalledTimes(2);
    now += 30_000;
    await cache.resolve('svc_secret', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  test('a ttl of 0 keeps nothing', async () => {
    const cache = new CredentialCache(100, clock);
    const load = countingLoad(authContext('key-1'), 0);
    await cache.resolve('svc_secret', load);
    await cache.resolve('svc_secret', load);
    expect(load).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(0);
  });

  test('different credentials are kept apart', async () => {
    const cache = new CredentialCache(100, clock);
    const first = authContext('key-1');
    const second = authContext('key-2');
    expect(await cache.resolve('svc_one', countingLoad(first))).toBe(first);
    expect(await cache.resolve('svc_two', countingLoad(second))).toBe(second);
    expect(await cache.resolve('svc_one', countingLoad(second))).toBe(first);
    expect(cache.size).toBe(2);
  });

  test('concurrent resolves of one credential share a single load', async () => {
    const cache = new CredentialCache(100, clock);
    const auth = authContext('key-1');
    const pending = deferredLoad(auth);
    const answers = Promise.all([cache.resolve('svc_secret', pending.load), cache.resolve('svc_secret', pending.load), cache.resolve('svc_secret', pending.load)]);
    pending.release();
    expect(await answers).toEqual([auth, auth, auth]);
    expect(pending.calls.count).toBe(1);
  });

  test('invalidate by credential id drops that entry only', async () => {
    const cache = new CredentialCache(100, clock);
    await cache.resolve('svc_one', countingLoad(authContext('key-1', 'ws-1')));
    await cache.resolve('svc_two', countingLoad(authContext('key-2', 'ws-1')));
    cache.invalidate({ credentialIds: ['key-1'], workspaceId: '' });
    expect(cache.size).toBe(1);
    const reload = countingLoad(authContext('key-1', 'ws-1'));
    await cache.resolve('svc_one', reload);
    expect(reload).toHaveBeenCalledTimes(1);
    const kept = countingLoad(authContext('key-2', 'ws-1'));
    await cache.resolve('svc_two', kept);
    expect(kept).not.toHaveBeenCalled();
  });

  test('invalidate by workspace id drops every entry of that workspace', async () => {
    const cache = new CredentialCache(100, clock);
    await cache.resolve('svc_one', countingLoad(authContext('key-1', 'ws-1')));
    await cache.resolve('svc_two', countingLoad(authContext('key-2', 'ws-1')));
    await cache.resolve('svc_three', countingLoad(authContext('key-3', 'ws-2')));
    cache.invalidate({ credentialIds: [], workspaceId: 'ws-1' });
    expect(cache.size).toBe(1);
    const other = countingLoad(authContext('key-3', 'ws-2'));
    await cache.resolve('svc_three', other);
    expect(other).not.toHaveBeenCalled();
  });

  test('invalidate by a platform’s workspace id drops the entries of every workspace under it', async () => {
    const cache = new CredentialCache(100, clock);
    await cache.resolve('svc_platform', countingLoad(authContext('key-1', 'platform', ['root'])));
    await cache.resolve('svc_customer', countingLoad(authContext('key-2', 'customer', ['platform', 'root'])));
    await cache.resolve('svc_deeper', countingLoad(authContext('key-3', 'deeper', ['customer', 'platform', 'root'])));
    await cache.resolve('svc_elsewhere', countingLoad(authContext('key-4', 'elsewhere', ['root'])));
    cache.invalidate({ credentialIds: [], workspaceId: 'platform' });
    expect(cache.size).toBe(1);
    const elsewhere = countingLoad(authContext('key-4', 'elsewhere', ['root']));
    await cache.resolve('svc_elsewhere', elsewhere);
    expect(elsewhere).not.toHaveBeenCalled();
    const customer = countingLoad(authContext('key-2', 'customer', ['platform', 'root']));
    await cache.resolve('svc_customer', customer);
    expect(customer).toHaveBeenCalledTimes(1);
  });

  test('an empty workspace id in a notice matches no workspace', async () => {
    const cache = new CredentialCache(100, clock);
    await cache.resolve('svc_one', countingLoad(authContext('key-1', 'ws-1')));
    cache.invalidate({ credentialIds: ['unknown'], workspaceId: '' });
    expect(cache.size).toBe(1);
  });

  test('a load in flight when invalidate() ran is answered but not kept', async () => {
    const cache = new CredentialCache(100, clock);
    const stale = authContext('key-1');
    const pending = deferredLoad(stale);
    const answer = cache.resolve('svc_secret', pending.load);
    cache.invalidate({ credentialIds: ['key-1'], workspaceId: '' });
    pending.release();
    // The caller that started before the revocation gets its answer...
    expect(await answer).toBe(stale);
    // ...but nothing is kept: the next request asks again (and would be refused).
    expect(cache.size).toBe(0);
    const next = jest.fn(async (): Promise<{ auth: AuthContext; ttlSeconds: number }> => {
      throw new Error('revoked');
    });
    await expect(cache.resolve('svc_secret', next)).rejects.toThrow('revoked');
    expect(next).toHaveBeenCalledTimes(1);
  });

  test('a resolve after invalidate() does not join the load that started before it', async () => {
    const cache = new CredentialCache(100, clock);
    const before = deferredLoad(authContext('key-1'));
    const first = cache.resolve('svc_secret', before.load);
    cache.invalidate({ credentialIds: ['key-1'], workspaceId: '' });
    const after = deferredLoad(authContext('key-1'));
    const second = cache.resolve('svc_secret', after.load);
    expect(after.calls.count).toBe(1);
    before.release();
    after.release();
    await Promise.all([first, second]);
    // The load that started after the revocation may be kept.
    expect(cache.size).toBe(1);
  });

  test('an older load finishing does not detach the newer one from later callers', async () => {
    const cache = new CredentialCache(100, clock);
    const before = deferredLoad(authContext('key-1'));
    const first = cache.resolve('svc_secret', before.load);
    cache.invalidate({ credentialIds: ['key-1'], workspaceId: '' });
    const after = deferredLoad(authContext('key-1'));
    const second = cache.resolve('svc_secret', after.load);
    before.release();
    await first;
    // The newer load is still in flight: a third caller shares it rather than loading again.
    const third = cache.resolve('svc_secret', after.load);
    after.release();
    await Promise.all([second, third]);
    expect(after.calls.count).toBe(1);
  });

  test('a failed load is not kept, and its callers all see the failure', async () => {
    const cache = new CredentialCache(100, clock);
    const pending = deferredLoad(authContext('key-1'));
    const first = cache.resolve('svc_secret', pending.load);
    const second = cache.resolve('svc_secret', pending.load);
    pending.fail(new Error('identity unavailable'));
    await expect(first).rejects.toThrow('identity unavailable');
    await expect(second).rejects.toThrow('identity unavailable');
    expect(cache.size).toBe(0);
    const retry = countingLoad(authContext('key-1'));
    await cache.resolve('svc_secret', retry);
    expect(retry).toHaveBeenCalledTimes(1);
  });

  test('beyond maxEntries the oldest entry is dropped', async () => {
    const cache = new CredentialCache(2, clock);
    await cache.resolve('svc_one', countingLoad(authContext('key-1')));
    await cache.resolve('svc_two', countingLoad(authContext('key-2')));
    await cache.resolve('svc_three', countingLoad(authContext('key-3')));
    expect(cache.size).toBe(2);
    const one = countingLoad(authContext('key-1'));
    const three = countingLoad(authContext('key-3'));
    await cache.resolve('svc_three', three);
    expect(three).not.toHaveBeenCalled();
    await cache.resolve('svc_one', one);
    expect(one).toHaveBeenCalledTimes(1);
    expect(cache.size).toBe(2);
  });

  test('uses Date.now when no clock is given', async () => {
    const cache = new CredentialCache();
    const load = countingLoad(authContext('key-1'), 60);
    await cache.resolve('svc_secret', load);
    await cache.resolve('svc_secret', load);
    expect(load).toHaveBeenCalledTimes(1);
  });
});
