// ListMembers, AddMember, UpdateMember and RemoveMember for the caller's workspace. Changes are
// compare-and-set against the member as read, so the role rules always judge the current state.
// Adding invites: the member stays `invited` until the person accepts (acceptance.ts).
import type { HandlerContext } from '@connectrpc/connect';
import { isRole } from '@voice/runtime/access';
import { defaultName, emailIssue, nameIssue, normaliseEmail } from '@voice/runtime/accounts';
import { workspaceCallerOf } from '@voice/runtime/caller';
import { invalidRequest, notFound, serviceError, type FieldIssue } from '@voice/runtime/errors';
import { isUuid, newId } from '@voice/runtime/ids';
import type { Notifier } from '@voice/runtime/nats';
import { normalisePage } from '@voice/runtime/validation';
import type { AddMemberRequest, UpdateMemberRequest } from '@voice/proto/voice/identity/v1/identity';
import { presentMember } from '../presenter.js';
import { realmOf } from '../workspaces/realms.js';
import { announceRevoked } from '../credentials/revocations.js';
import type { MemberChangeOutcome, MemberRecord, MemberState, MemberStore, WorkspaceKeyStore } from '../store/store.js';
import { isMemberStatus, mayManage, revokesCredentials, type Actor } from '../domain/member-rules.js';

/** A change that lost every compare-and-set to concurrent changes this often gives up. */
const maxAttempts = 5;

const forbidden = () => serviceError('forbidden', 'your role may not grant, change or remove this role');
const lastOwner = () => serviceError('conflict', 'the last active owner of a workspace cannot be removed, demoted or suspended');
const memberNotFound = () => notFound('member');

const stateOf = (member: MemberRecord): MemberState => ({ role: member.role, status: member.status });

export class Members {
  constructor(private readonly deps: { store: MemberStore & WorkspaceKeyStore; notifier: Notifier; now: () => Date }) {}

  async list(request: { limit: number; offset: number }, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const { members, total } = await this.deps.store.listMembers(caller.workspaceId, normalisePage(request));
    return { members: members.map(presentMember), total };
  }

  async add(request: AddMemberRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const email = normaliseEmail(request.email);
    const name = request.name.trim();
    const issues: FieldIssue[] = [];
    const emailProblem = emailIssue(email);
    if (emailProblem) issues.push({ field: 'email', issue: emailProblem });
    if (!isRole(request.role)) issues.push({ field: 'role', issue: 'must be owner, admin or member' });
    if (request.password) issues.push({ field: 'password', issue: 'is not accepted: the invited person chooses their own password' });
    const nameProblem = nameIssue(name);
    if (nameProblem) issues.push({ field: 'name', issue: nameProblem });
    if (issues.length > 0 || !isRole(request.role)) throw invalidRequest(issues);
    if (!mayManage(await this.actorOf(context), undefined, request.role)) throw forbidden();
    const workspace = await this.deps.store.getWorkspace(caller.workspaceId);
    if (!workspace) throw notFound('workspace');

    // Members come from the workspace's realm; a new e-mail there gets a user without a password,
    // who chooses one on accepting. The answer is the same whether the user existed or not.
    const realmId = realmOf(workspace);
    const createdAt = this.deps.now().toISOString();
    const invitedName = name || defaultName(request.email.trim());
    const user = { id: newId(), realmId, email, name: invitedName, passwordHash: null, createdAt };
    const membership = { workspaceId: caller.workspaceId, role: request.role, status: 'invited' as const, createdAt, invitedName };
    const outcome = await this.deps.store.addMember(membership, user);
    if (outcome.kind === 'already_member') throw serviceError('conflict', 'the user is already a member of this workspace');
    const invitee = await this.deps.store.getUser(outcome.member.userId);
    return { member: presentMember(outcome.member), realmWorkspaceId: realmId, signIn: Boolean(invitee?.passwordHash) };
  }

  async update(request: UpdateMemberRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const issues: FieldIssue[] = [];
    if (request.role !== undefined && !isRole(request.role)) issues.push({ field: 'role', issue: 'must be owner, admin or member' });
    if (request.status !== undefined && !isMemberStatus(request.status)) issues.push({ field: 'status', issue: 'must be active or suspended' });
    if (issues.length > 0) throw invalidRequest(issues);
    if (!isUuid(request.userId)) throw memberNotFound();
    const actor = await this.actorOf(context);
    let widened = false;
    const outcome = await this.compareAndSet(caller.workspaceId, request.userId, (current) => {
      if (current.status === 'invited') throw serviceError('conflict', 'the member has not accepted the invitation yet; remove it and invite again to change it');
      const next: MemberState = {
        role: request.role !== undefined && isRole(request.role) ? request.role : current.role,
        status: request.status !== undefined && isMemberStatus(request.status) ? request.status : current.status,
      };
      if (!mayManage(actor, current.role, next.role)) throw forbidden();
      const revoke = revokesCredentials(stateOf(current), next);
      widened = !revoke && next.role !== current.role;
      return this.deps.store.changeMember(caller.workspaceId, current.userId, stateOf(current), next, revoke);
    });
    if (widened) {
      // Nothing was revoked, but cached answers still carry the old role's scopes.
      await announceRevoked(this.deps.notifier, { credentialIds: await this.deps.store.activeAccessTokenIds(caller.workspaceId, request.userId) });
    }
    return { member: presentMember(outcome.member!) };
  }

  async remove(request: { userId: string }, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    if (!isUuid(request.userId)) throw memberNotFound();
    const actor = await this.actorOf(context);
    await this.compareAndSet(caller.workspaceId, request.userId, (current) => {
      if (!mayManage(actor, current.role, undefined)) throw forbidden();
      return this.deps.store.removeMember(caller.workspaceId, current.userId, stateOf(current));
    });
    return {};
  }

  /** Reads the member, lets `change` decide and write, and reads again when the member moved meanwhile. */
  private async compareAndSet(
    workspaceId: string,
    userId: string,
    change: (current: MemberRecord) => Promise<MemberChangeOutcome>,
  ): Promise<Extract<MemberChangeOutcome, { kind: 'changed' }>> {
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const current = await this.deps.store.getMember(workspaceId, userId);
      if (!current) throw memberNotFound();
      const outcome = await change(current);
      switch (outcome.kind) {
        case 'changed':
          await announceRevoked(this.deps.notifier, { credentialIds: outcome.revokedCredentialIds });
          return outcome;
        case 'not_found':
          throw memberNotFound();
        case 'last_owner':
          throw lastOwner();
        case 'stale':
          continue;
      }
    }
    throw serviceError('conflict', 'the member was changed concurrently; try again');
  }

  private async actorOf(context: HandlerContext): Promise<Actor> {
    const caller = workspaceCallerOf(context);
    if (caller.principal.type !== 'user') return { kind: 'unrestricted' };
    const self = await this.deps.store.getMember(caller.workspaceId, caller.principal.id);
    if (!self || self.status !== 'active') throw serviceError('forbidden', 'you are not an active member of this workspace');
    return { kind: 'user', role: self.role };
  }
}
