// A workspace's service-account API keys: created within the creating key's own scopes and shown
// once, listed by hint, and revoked (never the root's last unrestricted key), announced at once.
import { hasScope, nonCanonical } from '@voice/runtime/access';
import type { WorkspaceCaller } from '@voice/runtime/caller';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { isUuid, newId } from '@voice/runtime/ids';
import type { Notifier } from '@voice/runtime/nats';
import { normalisePage } from '@voice/runtime/validation';
import type { CreateApiKeyRequest } from '@voice/proto/voice/identity/v1/identity';
import { announceRevoked } from '../credentials/revocations.js';
import { generateApiKey, hashCredential, keyHint } from '../domain/credentials.js';
import { presentApiKey } from '../presenter.js';
import type { ApiKeyRecord, WorkspaceKeyStore } from '../store/store.js';


export class ApiKeys {
  constructor(private readonly deps: { store: WorkspaceKeyStore; notifier: Notifier; now: () => Date }) {}

  async create(request: CreateApiKeyRequest, caller: WorkspaceCaller) {
    const name = request.name.trim();
    const issues = [];
    if (name.length === 0 || name.length > 100) issues.push({ field: 'name', issue: 'must be 1 to 100 characters' });
    if (request.scopes.length === 0) issues.push({ field: 'scopes', issue: 'must list at least one scope' });
    const unknown = nonCanonical(request.scopes);
    if (unknown.length > 0) issues.push({ field: 'scopes', issue: `not canonical scopes: ${unknown.join(', ')}` });
    if (issues.length > 0) throw invalidRequest(issues);
    const scopes = [...new Set(request.scopes)];
    const beyond = scopes.filter((scope) => !hasScope(caller.scopes, scope));
    if (beyond.length > 0) {
      throw serviceError('forbidden', `a key can only create keys within its own scopes; not held: ${beyond.join(', ')}`);
    }
    const key = generateApiKey();
    const record: ApiKeyRecord = {
      id: newId(),
      workspaceId: caller.workspaceId,
      name,
      principalId: newId(),
      keyHash: hashCredential(key),
      keyHint: keyHint(key),
      scopes,
      status: 'active',
      createdAt: this.deps.now().toISOString(),
      lastUsedAt: null,
    };
    await this.deps.store.createApiKey(record);
    return { apiKey: presentApiKey(record), key };
  }

  async list(request: { limit: number; offset: number }, caller: WorkspaceCaller) {
    const { keys, total } = await this.deps.store.listApiKeys(caller.workspaceId, normalisePage(request));
    return { apiKeys: keys.map(presentApiKey), total };
  }

  async revoke(id: string, caller: WorkspaceCaller) {
    const outcome = isUuid(id) ? await this.deps.store.revokeApiKey(caller.workspaceId, id) : 'not_found';
    if (outcome === 'not_found') throw notFound('API key');
    if (outcome === 'last_unrestricted') {
      throw serviceError(
        'conflict',
        'this is the root platform’s last key without scope restrictions and cannot be revoked; restart identity with a new VOICE_ROOT_API_KEY to register another, then revoke this one',
      );
    }
    await announceRevoked(this.deps.notifier, { credentialIds: [id] });
    return {};
  }
}
