// First start: the root platform workspace and its one unrestricted key. Never twice.
import { newId, type Logger } from '@voice/runtime';
import { generateApiKey, hashCredential, keyHint } from './credentials.js';
import type { IdentityStore } from './store/store.js';

export async function bootstrapRoot(
  store: IdentityStore,
  options: { rootApiKey: string | undefined; logger: Logger; announce: (line: string) => void },
): Promise<void> {
  const key = options.rootApiKey ?? generateApiKey();
  const now = new Date().toISOString();
  const workspaceId = newId();
  const outcome = await store.bootstrapRoot(
    { id: workspaceId, name: 'Root platform', plan: 'enterprise', status: 'active', parentWorkspaceId: null, createdAt: now },
    {
      id: newId(),
      workspaceId,
      name: 'root',
      principalId: newId(),
      keyHash: hashCredential(key),
      keyHint: keyHint(key),
      scopes: null,
      status: 'active',
      createdAt: now,
      lastUsedAt: null,
    },
  );
  if (outcome === 'exists') {
    if (options.rootApiKey && !(await store.findApiKeyByHash(hashCredential(options.rootApiKey)))) {
      options.logger.warn('VOICE_ROOT_API_KEY ignored: the root workspace already exists with another root key');
    }
    return;
  }
  options.logger.info('root workspace created', { workspace_id: workspaceId });
  if (!options.rootApiKey) options.announce(`Root API key (shown once, store it now): ${key}`);
}
