// The IdentityService: turns bearer credentials into principals, and owns workspaces and
// service-account keys. Revocations are announced before the revoking call returns.
import { create, toBinary } from '@bufbuild/protobuf';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import {
  callerOf,
  constantTimeEqual,
  credentialsRevokedSubject,
  hasScope,
  invalidRequest,
  monotonicClock,
  isPlan,
  isUuid,
  newId,
  nonCanonical,
  normalisePage,
  notFound,
  serviceError,
  workspaceCallerOf,
  type Notifier,
} from '@voice/runtime';
import {
  CredentialsRevokedSchema,
  type CreateApiKeyRequest,
  type CreateWorkspaceRequest,
  type IdentityService,
} from '@voice/proto/voice/identity/v1/identity';
import { accessTokenPrefix, apiKeyPrefix, generateApiKey, hashCredential, keyHint } from './keys.js';
import { presentApiKey, presentWorkspace } from './presenter.js';
import type { IdentityStore } from './store/store.js';

export interface IdentityDeps {
  store: IdentityStore;
  notifier: Notifier;
  now?: () => Date;
}

/** How long the gateway may keep an Authenticate answer; revocations reach it sooner. */
export const authenticationCacheSeconds = 60;
/** last_used_at is written at most this often per key, so reads stay reads. */
const lastUsedResolutionMs = 60_000;

const unauthenticated = () => serviceError('unauthorized', 'the credential is missing, invalid, expired or revoked');

export class IdentityServiceImpl implements ServiceImpl<typeof IdentityService> {
  private readonly now: () => Date;

  constructor(private readonly deps: IdentityDeps) {
    this.now = deps.now ?? monotonicClock();
  }

  async authenticate(request: { credential: string }, context: HandlerContext) {
    this.requireInternal(context);
    const credential = request.credential;
    if (!credential.startsWith(apiKeyPrefix) || credential.startsWith(accessTokenPrefix) || credential.length > 512) {
      throw unauthenticated();
    }
    const hash = hashCredential(credential);
    const key = await this.deps.store.findApiKeyByHash(hash);
    if (!key || !constantTimeEqual(key.keyHash, hash) || key.status !== 'active') throw unauthenticated();
    const workspace = await this.deps.store.getWorkspace(key.workspaceId);
    if (!workspace || workspace.status !== 'active') throw unauthenticated();
    const now = this.now();
    if (!key.lastUsedAt || now.getTime() - Date.parse(key.lastUsedAt) >= lastUsedResolutionMs) {
      await this.deps.store.touchApiKey(key.id, now.toISOString());
    }
    return {
      principal: { type: 'service_account', id: key.principalId, name: key.name },
      workspace: presentWorkspace(workspace),
      unrestricted: key.scopes === null,
      scopes: key.scopes ?? [],
      credentialId: key.id,
      cacheTtlSeconds: authenticationCacheSeconds,
    };
  }

  async getWorkspace(request: { id: string }, context: HandlerContext) {
    const caller = callerOf(context);
    if (caller.principal.type !== 'internal' && caller.workspaceId !== request.id) throw notFound('workspace');
    const workspace = isUuid(request.id) ? await this.deps.store.getWorkspace(request.id) : undefined;
    if (!workspace) throw notFound('workspace');
    return { workspace: presentWorkspace(workspace) };
  }

  async createWorkspace(request: CreateWorkspaceRequest, context: HandlerContext) {
    this.requireInternal(context);
    const issues = [];
    if (request.name.trim().length === 0 || request.name.length > 200) issues.push({ field: 'name', issue: 'must be 1 to 200 characters' });
    if (!isPlan(request.plan)) issues.push({ field: 'plan', issue: 'must be starter, pro or enterprise' });
    if (issues.length > 0) throw invalidRequest(issues);
    const parent = isUuid(request.parentWorkspaceId) ? await this.deps.store.getWorkspace(request.parentWorkspaceId) : undefined;
    if (!parent) throw invalidRequest([{ field: 'parent_workspace_id', issue: 'must name an existing workspace' }]);
    const workspace = {
      id: newId(),
      name: request.name.trim(),
      plan: request.plan,
      status: 'active' as const,
      parentWorkspaceId: parent.id,
      createdAt: this.now().toISOString(),
    };
    await this.deps.store.createWorkspace(workspace);
    return { workspace: presentWorkspace(workspace) };
  }

  async createApiKey(request: CreateApiKeyRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
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
    const record = {
      id: newId(),
      workspaceId: caller.workspaceId,
      name,
      principalId: newId(),
      keyHash: hashCredential(key),
      keyHint: keyHint(key),
      scopes,
      status: 'active' as const,
      createdAt: this.now().toISOString(),
      lastUsedAt: null,
    };
    await this.deps.store.createApiKey(record);
    return { apiKey: presentApiKey(record), key };
  }

  async listApiKeys(request: { limit: number; offset: number }, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const { keys, total } = await this.deps.store.listApiKeys(caller.workspaceId, normalisePage(request));
    return { apiKeys: keys.map(presentApiKey), total };
  }

  async revokeApiKey(request: { id: string }, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    if (!isUuid(request.id) || !(await this.deps.store.revokeApiKey(caller.workspaceId, request.id))) throw notFound('API key');
    await this.deps.notifier.publish(
      credentialsRevokedSubject,
      toBinary(CredentialsRevokedSchema, create(CredentialsRevokedSchema, { credentialIds: [request.id] })),
    );
    return {};
  }

  private requireInternal(context: HandlerContext): void {
    if (callerOf(context).principal.type !== 'internal') throw serviceError('forbidden', 'only platform services may call this');
  }
}
