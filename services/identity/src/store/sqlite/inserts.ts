// The INSERTs of workspaces, users and memberships, shared by the parts that create them; each
// runs inside the caller's transaction when there is one.
import type { Sql } from './context.js';
import { storedMembership } from '../mapping/member.js';
import { storedUser } from '../mapping/user.js';
import { storedWorkspace } from '../mapping/workspace.js';
import type { MembershipRecord, UserRecord, WorkspaceRecord } from '../store.js';

export function insertWorkspace(sql: Sql, workspace: WorkspaceRecord): void {
  sql('INSERT INTO workspaces (id, name, plan, status, parent_workspace_id, created_at) VALUES (@id, @name, @plan, @status, @parent_workspace_id, @created_at)')
    .run({ id: workspace.id, ...storedWorkspace(workspace) });
}

export function insertUser(sql: Sql, user: UserRecord): void {
  sql('INSERT INTO users (id, realm_id, email, name, password_hash, created_at) VALUES (@id, @realm_id, @email, @name, @password_hash, @created_at)')
    .run({ id: user.id, ...storedUser(user) });
}

export function insertMember(sql: Sql, membership: MembershipRecord): void {
  sql('INSERT INTO members (workspace_id, user_id, role, status, created_at, invited_name) VALUES (@workspace_id, @user_id, @role, @status, @created_at, @invited_name)')
    .run({ invited_name: null, ...storedMembership(membership) });
}
