// Users and memberships in SQLite; a member change revokes the member's OAuth credentials in the same transaction.
import type { Role } from '@voice/runtime/access';
import { isUniqueViolation } from '@voice/runtime/store/sqlite';
import type { Page } from '@voice/runtime/validation';
import type {
  AddMemberOutcome,
  MemberChangeOutcome,
  MemberRecord,
  MembershipRecord,
  MemberState,
  MemberStore,
  UserRecord,
  WorkspaceRecord,
} from '../store.js';
import { ids, memberFromRow, userFromRow, workspaceFromRow, type MemberRow, type UserRow, type WorkspaceRow } from './rows.js';
import type { SqliteContext } from './context.js';
import { insertMember, insertUser } from './inserts.js';
import { revokeOAuthCredentials } from './revoke.js';

const memberSelect = `SELECT m.workspace_id, m.user_id, m.role, m.status, m.created_at, m.invited_name, u.email, u.name, u.realm_id
  FROM members m JOIN users u ON u.id = m.user_id`;

export function sqliteMemberStore({ db, sql }: SqliteContext): MemberStore {
  async function createUser(user: UserRecord): Promise<boolean> {
    try {
      insertUser(sql, user);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async function getUser(id: string): Promise<UserRecord | undefined> {
    const row = sql('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
    return row ? userFromRow(row) : undefined;
  }

  async function findUserByEmail(realmId: string, email: string): Promise<UserRecord | undefined> {
    const row = sql('SELECT * FROM users WHERE realm_id = ? AND email = ?').get(realmId, email) as UserRow | undefined;
    return row ? userFromRow(row) : undefined;
  }

  async function addMember(membership: Omit<MembershipRecord, 'userId'>, user: UserRecord): Promise<AddMemberOutcome> {
    return db.transaction((): AddMemberOutcome => {
      const existing = sql('SELECT id FROM users WHERE realm_id = ? AND email = ?').get(user.realmId, user.email) as { id: string } | undefined;
      if (!existing) insertUser(sql, user);
      const userId = existing?.id ?? user.id;
      const current = member(membership.workspaceId, userId);
      if (current) return current.status === 'invited' ? { kind: 'added', member: current } : { kind: 'already_member' };
      insertMember(sql, { ...membership, userId });
      return { kind: 'added', member: member(membership.workspaceId, userId)! };
    }).immediate();
  }

  async function getMember(workspaceId: string, userId: string): Promise<MemberRecord | undefined> {
    return member(workspaceId, userId);
  }

  async function listMembers(workspaceId: string, page: Page): Promise<{ members: MemberRecord[]; total: number }> {
    return db.transaction(() => {
      const { total } = sql('SELECT COUNT(*) AS total FROM members WHERE workspace_id = ?').get(workspaceId) as { total: number };
      const rows = sql(`${memberSelect} WHERE m.workspace_id = ? ORDER BY m.created_at DESC, m.user_id DESC LIMIT ? OFFSET ?`)
        .all(workspaceId, page.limit, page.offset) as MemberRow[];
      return { members: rows.map(memberFromRow), total };
    })();
  }

  async function changeMember(workspaceId: string, userId: string, expected: MemberState, next: MemberState, revoke: boolean): Promise<MemberChangeOutcome> {
    return db.transaction((): MemberChangeOutcome => {
      const refusal = checkMemberChange(workspaceId, userId, expected, next);
      if (refusal) return refusal;
      sql('UPDATE members SET role = ?, status = ? WHERE workspace_id = ? AND user_id = ?').run(next.role, next.status, workspaceId, userId);
      const revokedCredentialIds = revoke ? revokeMemberCredentials(workspaceId, userId) : [];
      return { kind: 'changed', member: member(workspaceId, userId), revokedCredentialIds };
    }).immediate();
  }

  async function removeMember(workspaceId: string, userId: string, expected: MemberState): Promise<MemberChangeOutcome> {
    return db.transaction((): MemberChangeOutcome => {
      const refusal = checkMemberChange(workspaceId, userId, expected, undefined);
      if (refusal) return refusal;
      sql('DELETE FROM members WHERE workspace_id = ? AND user_id = ?').run(workspaceId, userId);
      return { kind: 'changed', member: undefined, revokedCredentialIds: revokeMemberCredentials(workspaceId, userId) };
    }).immediate();
  }

  async function activeAccessTokenIds(workspaceId: string, userId: string): Promise<string[]> {
    return ids(
      sql("SELECT id FROM oauth_tokens WHERE workspace_id = ? AND user_id = ? AND kind = 'access' AND status = 'active' ORDER BY id")
        .all(workspaceId, userId),
    );
  }

  async function membershipsOf(userId: string): Promise<{ workspace: WorkspaceRecord; role: Role }[]> {
    const rows = sql(
      `SELECT w.*, m.role AS member_role FROM members m JOIN workspaces w ON w.id = m.workspace_id
       WHERE m.user_id = ? AND m.status = 'active' AND w.status = 'active' ORDER BY m.created_at, w.id`,
    ).all(userId) as (WorkspaceRow & { member_role: string })[];
    return rows.map((row) => ({ workspace: workspaceFromRow(row), role: row.member_role as Role }));
  }

  async function setInitialPassword(userId: string, passwordHash: string): Promise<boolean> {
    return sql('UPDATE users SET password_hash = ? WHERE id = ? AND password_hash IS NULL').run(passwordHash, userId).changes === 1;
  }

  async function replacePasswordHash(userId: string, expected: string, passwordHash: string): Promise<boolean> {
    return sql('UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?').run(passwordHash, userId, expected).changes === 1;
  }

  function member(workspaceId: string, userId: string): MemberRecord | undefined {
    const row = sql(`${memberSelect} WHERE m.workspace_id = ? AND m.user_id = ?`).get(workspaceId, userId) as MemberRow | undefined;
    return row ? memberFromRow(row) : undefined;
  }

  /** Why the change may not happen, or undefined; `next` undefined is a removal. */
  function checkMemberChange(workspaceId: string, userId: string, expected: MemberState, next: MemberState | undefined): MemberChangeOutcome | undefined {
    const current = sql('SELECT role, status FROM members WHERE workspace_id = ? AND user_id = ?').get(workspaceId, userId) as
      | MemberState
      | undefined;
    if (!current) return { kind: 'not_found' };
    if (current.role !== expected.role || current.status !== expected.status) return { kind: 'stale' };
    const wasActiveOwner = current.role === 'owner' && current.status === 'active';
    const staysActiveOwner = next?.role === 'owner' && next.status === 'active';
    if (wasActiveOwner && !staysActiveOwner) {
      const others = sql(
        "SELECT COUNT(*) AS n FROM members WHERE workspace_id = ? AND user_id <> ? AND role = 'owner' AND status = 'active'",
      ).get(workspaceId, userId) as { n: number };
      if (others.n === 0) return { kind: 'last_owner' };
    }
    return undefined;
  }

  /** The member's grants, tokens and unused codes of this one workspace; inside the caller's transaction. */
  function revokeMemberCredentials(workspaceId: string, userId: string): string[] {
    return revokeOAuthCredentials(sql, { where: 'workspace_id = ? AND user_id = ?', params: [workspaceId, userId] });
  }

  return { createUser, getUser, findUserByEmail, addMember, getMember, listMembers, changeMember, removeMember, activeAccessTokenIds, membershipsOf, setInitialPassword, replacePasswordHash };
}
