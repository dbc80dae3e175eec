// A membership's stored form and its mapping to the member record, which adds the user's e-mail, name and realm.
import type { Role } from '@voice/runtime/access';
import type { MemberRecord, MembershipRecord } from '../store.js';
import type { StoredUser } from './user.js';

export interface StoredMembership {
  workspace_id: string;
  user_id: string;
  role: string;
  status: string;
  created_at: string;
  /** Absent (MongoDB) or null (SQLite) once the member has accepted. */
  invited_name?: string | null;
}

export const storedMembership = (m: MembershipRecord): StoredMembership => ({
  workspace_id: m.workspaceId,
  user_id: m.userId,
  role: m.role,
  status: m.status,
  created_at: m.createdAt,
  ...(m.invitedName === undefined ? {} : { invited_name: m.invitedName }),
});

export const memberFromStored = (s: StoredMembership, user: Pick<StoredUser, 'email' | 'name' | 'realm_id'>): MemberRecord => ({
  workspaceId: s.workspace_id,
  userId: s.user_id,
  role: s.role as Role,
  status: s.status as MemberRecord['status'],
  createdAt: s.created_at,
  email: user.email,
  name: user.name,
  realmId: user.realm_id ?? '',
  ...(s.invited_name === undefined || s.invited_name === null ? {} : { invitedName: s.invited_name }),
});
