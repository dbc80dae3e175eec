// The INSERTs of workspaces, users and memberships, shared by the parts that create them; each
// runs inside the caller's transaction when there is one.
import { insertRow } from '@voice/runtime/store/sqlite';
import type { Sql } from './context.js';
import { storedMembership } from '../mapping/member.js';
import { storedUser } from '../mapping/user.js';
import { storedWorkspace } from '../mapping/workspace.js';
import type { MembershipRecord, UserRecord, WorkspaceRecord } from '../store.js';

export function insertWorkspace(sql: Sql, workspace: WorkspaceRecord): void {
  insertRow(sql, 'workspaces', { id: workspace.id, ...storedWorkspace(workspace) });
}

export function insertUser(sql: Sql, user: UserRecord): void {
  insertRow(sql, 'users', { id: user.id, ...storedUser(user) });
}

export function insertMember(sql: Sql, membership: MembershipRecord): void {
  insertRow(sql, 'members', storedMembership(membership));
}
