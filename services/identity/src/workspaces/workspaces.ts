// Workspaces: reading one (a caller sees only its own), creating one under a parent, and
// suspending or reactivating one; suspension revokes every credential of the workspace.
import { isPlan } from '@voice/runtime/access';
import type { Caller } from '@voice/runtime/caller';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { isUuid, newId } from '@voice/runtime/ids';
import type { Notifier } from '@voice/runtime/nats';
import type { CreateWorkspaceRequest, SetWorkspaceStatusRequest } from '@voice/proto/voice/identity/v1/identity';
import { announceRevoked } from '../credentials/revocations.js';
import { presentWorkspace } from '../presenter.js';
import type { WorkspaceKeyStore, WorkspaceRecord } from '../store/store.js';

export class Workspaces {
  constructor(private readonly deps: { store: WorkspaceKeyStore; notifier: Notifier; now: () => Date }) {}

  async get(id: string, caller: Caller) {
    if (caller.principal.type !== 'internal' && caller.workspaceId !== id) throw notFound('workspace');
    const workspace = isUuid(id) ? await this.deps.store.getWorkspace(id) : undefined;
    if (!workspace) throw notFound('workspace');
    return { workspace: presentWorkspace(workspace) };
  }

  async create(request: CreateWorkspaceRequest) {
    const issues = [];
    if (request.name.trim().length === 0 || request.name.length > 200) issues.push({ field: 'name', issue: 'must be 1 to 200 characters' });
    if (!isPlan(request.plan)) issues.push({ field: 'plan', issue: 'must be starter, pro or enterprise' });
    if (issues.length > 0) throw invalidRequest(issues);
    const parent = isUuid(request.parentWorkspaceId) ? await this.deps.store.getWorkspace(request.parentWorkspaceId) : undefined;
    if (!parent) throw invalidRequest([{ field: 'parent_workspace_id', issue: 'must name an existing workspace' }]);
    const workspace: WorkspaceRecord = {
      id: newId(),
      name: request.name.trim(),
      plan: request.plan,
      status: 'active',
      parentWorkspaceId: parent.id,
      createdAt: this.deps.now().toISOString(),
    };
    await this.deps.store.createWorkspace(workspace);
    return { workspace: presentWorkspace(workspace) };
  }

  /** Suspending revokes every credential of the workspace; reactivating revives none of them. */
  async setStatus(request: SetWorkspaceStatusRequest) {
    if (request.status !== 'active' && request.status !== 'suspended') throw invalidRequest([{ field: 'status', issue: 'must be active or suspended' }]);
    const workspace = isUuid(request.workspaceId) ? await this.deps.store.getWorkspace(request.workspaceId) : undefined;
    if (!workspace) throw notFound('workspace');
    // Suspending the root would revoke the root key with no way back: bootstrap never runs twice.
    if (workspace.parentWorkspaceId === null) throw serviceError('conflict', 'the root platform workspace cannot be suspended');
    const outcome = await this.deps.store.setWorkspaceStatus(workspace.id, request.status);
    if (!outcome) throw notFound('workspace');
    if (request.status === 'suspended') {
      await announceRevoked(this.deps.notifier, { credentialIds: outcome.revokedCredentialIds, workspaceId: outcome.workspace.id });
    }
    return { workspace: presentWorkspace(outcome.workspace) };
  }
}
