// Authenticate answers kept for a short time, so most requests make one internal hop instead
// of two. Revocation notices drop entries before the revoking request returns, and an answer
// fetched while a revocation happened is never kept.
import { sha256Hex } from '@voice/runtime/crypto';
import type { AuthContext } from './auth-context.js';

interface Entry {
  auth: AuthContext;
  expiresAt: number;
}

export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<AuthContext>>();
  /** Bumped by every invalidation; a fill that started in an older epoch is not kept. */
  private epoch = 0;

  constructor(private readonly maxEntries = 10_000, private readonly clock: () => number = Date.now) {}

  /** The cached answer for the credential, or the shared result of one `load` for it. */
  async resolve(credential: string, load: () => Promise<{ auth: AuthContext; ttlSeconds: number }>): Promise<AuthContext> {
    const key = sha256Hex(credential);
    const hit = this.entries.get(key);
    if (hit) this.entries.delete(key);
    if (hit && hit.expiresAt > this.clock()) {
      // Re-inserting keeps the map in least-recently-used order for eviction.
      this.entries.set(key, hit);
      return hit.auth;
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const startedIn = this.epoch;
    const fill = load()
      .then(({ auth, ttlSeconds }) => {
        if (this.epoch === startedIn && ttlSeconds > 0) this.store(key, { auth, expiresAt: this.clock() + ttlSeconds * 1000 });
        return auth;
      })
      .finally(() => {
        // Only its own entry: after an invalidate() a newer load may be in flight for the key.
        if (this.inFlight.get(key) === fill) this.inFlight.delete(key);
      });
    this.inFlight.set(key, fill);
    return fill;
  }

  invalidate(notice: { credentialIds: string[]; workspaceId: string }): void {
    this.epoch += 1;
    // In-flight loads may hold answers from before the revocation; later callers must load again.
    this.inFlight.clear();
    const ids = new Set(notice.credentialIds);
    // A suspended workspace takes the workspaces under it along (identity refuses them from now on).
    const suspended = (auth: AuthContext) => notice.workspaceId !== '' && (auth.workspace.id === notice.workspaceId || auth.platformIds.includes(notice.workspaceId));
    for (const [key, entry] of this.entries) {
      if (ids.has(entry.auth.credentialId) || suspended(entry.auth)) this.entries.delete(key);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, entry: Entry): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, entry);
  }
}
