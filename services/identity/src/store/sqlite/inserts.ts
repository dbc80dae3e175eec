// The INSERTs of workspaces, users and memberships, shared by the parts that create them; each
// runs inside the caller's transaction when there is one.
import type { Sql } from './context.js';
import type { MembershipRecord, UserRecord, WorkspaceRecord } from '../store.js';

export function insertWorkspace(sql: Sql, workspace: WorkspaceRecord): void {
  sql('INSERT INTO workspaces (id, name, plan, status, parent_workspace_id, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(workspace.id, workspace.name, workspace.plan, workspace.status, workspace.parentWorkspaceId, workspace.createdAt);
}

export function insertUser(sql: Sql, user: UserRecord): void {
  sql('INSERT INTO users (id, realm_id, email, name, password_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(user.id, user.realmId, user.email, user.name, user.passwordHash, user.createdAt);
}

export function insertMember(sql: Sql, membership: MembershipRecord): void {
  sql('INSERT INTO members (workspace_id, user_id, role, status, created_at, invited_name) VALUES (?, ?, ?, ?, ?, ?)')
    .run(membership.workspaceId, membership.userId, membership.role, membership.status, membership.createdAt, membership.invitedName ?? null);
}
