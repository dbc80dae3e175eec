// First start: the root platform workspace and its one unrestricted key, never twice. Later starts
// register VOICE_ROOT_API_KEY beside the root's keys when it is new: that is how an operator
// rotates the root key (the old one can be revoked once another unrestricted key exists).
import { newId } from '@voice/runtime/ids';
import type { Logger } from '@voice/runtime/logger';
import { generateApiKey, hashCredential, keyHint } from '../domain/credentials.js';
import type { ApiKeyRecord, WorkspaceKeyStore } from '../store/store.js';

const rootKeyRecord = (key: string, workspaceId: string, createdAt: string): ApiKeyRecord => ({
  id: newId(),
  workspaceId,
  name: 'root',
  principalId: newId(),
  keyHash: hashCredential(key),
  keyHint: keyHint(key),
  scopes: null,
  status: 'active',
  createdAt,
  lastUsedAt: null,
});

export async function bootstrapRoot(
  store: WorkspaceKeyStore,
  options: { rootApiKey: string | undefined; logger: Logger; announce: (line: string) => void },
): Promise<void> {
  const key = options.rootApiKey ?? generateApiKey();
  const now = new Date().toISOString();
  const workspaceId = newId();
  const outcome = await store.bootstrapRoot(
    { id: workspaceId, name: 'Root platform', plan: 'enterprise', status: 'active', parentWorkspaceId: null, createdAt: now },
    rootKeyRecord(key, workspaceId, now),
  );
  if (outcome === 'exists') {
    if (options.rootApiKey) await registerRotatedKey(store, options.rootApiKey, options.logger);
    return;
  }
  options.logger.info('root workspace created', { workspace_id: workspaceId });
  if (!options.rootApiKey) options.announce(`Root API key (shown once, store it now): ${key}`);
}

/** A VOICE_ROOT_API_KEY the root does not know yet becomes another unrestricted key; a revoked one stays revoked. */
async function registerRotatedKey(store: WorkspaceKeyStore, rootApiKey: string, logger: Logger): Promise<void> {
  const known = await store.findApiKeyByHash(hashCredential(rootApiKey));
  if (known) {
    if (known.status !== 'active') logger.warn('VOICE_ROOT_API_KEY was revoked and stays revoked; set a new key to rotate the root key');
    return;
  }
  const root = await store.rootWorkspace();
  if (!root) throw new Error('the root workspace vanished after bootstrap');
  // Replicas starting together race here; the key's unique hash lets exactly one register it.
  if ((await store.registerApiKey(rootKeyRecord(rootApiKey, root.id, new Date().toISOString()))) === 'created') {
    logger.info('VOICE_ROOT_API_KEY registered as a new root key; revoke the previous one once nothing uses it', { workspace_id: root.id });
  }
}
