// A platform's customers in SQLite: registration in one transaction, and the owners of the
// workspaces under a platform, searched by e-mail or name.
import type { Role } from '@voice/runtime/access';
import type { Page } from '@voice/runtime/validation';
import type { CustomerRecord, CustomerStore, MembershipRecord, RegisterCustomerOutcome, UserRecord, WorkspaceRecord } from '../store.js';
import { insertMember, insertUser, insertWorkspace } from './inserts.js';
import { userFromRow, workspaceFromRow, type UserRow, type WorkspaceRow } from './rows.js';
import type { SqliteContext } from './context.js';

/** The platform's customers matching a LIKE pattern, each with `since`: its oldest workspace there. */
const matching = `SELECT u.*, MIN(w.created_at) AS since
  FROM workspaces w JOIN members m ON m.workspace_id = w.id JOIN users u ON u.id = m.user_id
  WHERE w.parent_workspace_id = ? AND m.role = 'owner' AND m.status <> 'invited'
    AND (casefold(u.email) LIKE ? ESCAPE '\\' OR casefold(u.name) LIKE ? ESCAPE '\\')
  GROUP BY u.id`;

const ownedWorkspaces = `SELECT w.*, m.user_id AS member_user_id, m.role AS member_role
  FROM members m JOIN workspaces w ON w.id = m.workspace_id
  WHERE w.parent_workspace_id = ? AND m.role = 'owner' AND m.status <> 'invited' AND m.user_id IN (SELECT value FROM json_each(?))
  ORDER BY w.created_at, w.id`;

/** A LIKE pattern matching `text` literally anywhere, lower-cased as casefold() lower-cases the columns. */
const containsPattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function sqliteCustomerStore({ db, sql }: SqliteContext): CustomerStore {
  // SQLite's own lower() and LIKE fold ASCII letters only; names are not all ASCII.
  db.function('casefold', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value));

  async function registerCustomer(user: UserRecord, workspace: WorkspaceRecord, membership: MembershipRecord): Promise<RegisterCustomerOutcome> {
    // IMMEDIATE serialises registrations, so the e-mail read is still true when the rows go in.
    return db.transaction((): RegisterCustomerOutcome => {
      const existing = sql('SELECT id FROM users WHERE realm_id = ? AND email = ?').get(user.realmId, user.email) as { id: string } | undefined;
      if (!existing) insertUser(sql, user);
      insertWorkspace(sql, workspace);
      if (!existing) {
        insertMember(sql, membership);
        return { kind: 'registered' };
      }
      insertMember(sql, { ...membership, userId: existing.id, status: 'invited', invitedName: user.name });
      return { kind: 'invited', userId: existing.id };
    }).immediate();
  }

  async function listCustomers(platformWorkspaceId: string, query: string, page: Page): Promise<{ customers: CustomerRecord[]; total: number }> {
    return db.transaction(() => {
      const pattern = containsPattern(query);
      const { total } = sql(`SELECT COUNT(*) AS total FROM (${matching})`).get(platformWorkspaceId, pattern, pattern) as { total: number };
      const rows = sql(`${matching} ORDER BY since DESC, u.id DESC LIMIT ? OFFSET ?`)
        .all(platformWorkspaceId, pattern, pattern, page.limit, page.offset) as UserRow[];
      return { customers: withWorkspaces(platformWorkspaceId, rows), total };
    })();
  }

  async function getCustomer(platformWorkspaceId: string, userId: string): Promise<CustomerRecord | undefined> {
    return db.transaction(() => {
      const row = sql('SELECT * FROM users WHERE id = ?').get(userId) as UserRow | undefined;
      return row ? withWorkspaces(platformWorkspaceId, [row])[0] : undefined;
    })();
  }

  /** The users with their workspaces under the platform; users without any are left out. */
  function withWorkspaces(platformWorkspaceId: string, users: UserRow[]): CustomerRecord[] {
    const rows = sql(ownedWorkspaces).all(platformWorkspaceId, JSON.stringify(users.map((u) => u.id))) as (WorkspaceRow & {
      member_user_id: string;
      member_role: string;
    })[];
    return users.flatMap((user) => {
      const workspaces = rows
        .filter((row) => row.member_user_id === user.id)
        .map((row) => ({ workspace: workspaceFromRow(row), role: row.member_role as Role }));
      return workspaces.length > 0 ? [{ user: userFromRow(user), workspaces }] : [];
    });
  }

  return { registerCustomer, listCustomers, getCustomer };
}
