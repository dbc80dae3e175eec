// Who may grant, change or remove which role, and which member changes end credentials.
import { memberStatuses, roleRank, type Role } from '@voice/runtime/access';
import type { MemberState } from '../store/store.js';

/**
 * Who acts on the members: a user acts with its role in the workspace; service accounts and
 * platform services are not bound by roles.
 */
export type Actor = { kind: 'unrestricted' } | { kind: 'user'; role: Role };

/**
 * Whether the actor may move a member from role `from` (undefined: not yet a member) to role `to`
 * (undefined: removed). A user needs at least admin, and may neither touch nor hand out a role
 * above its own: only an owner touches owners or grants the owner role.
 */
export function mayManage(actor: Actor, from: Role | undefined, to: Role | undefined): boolean {
  if (actor.kind === 'unrestricted') return true;
  const rank = roleRank(actor.role);
  if (rank < roleRank('admin')) return false;
  return [from, to].every((role) => role === undefined || roleRank(role) <= rank);
}

/** Demotion to any lower role and suspension end the member's user-bound credentials in the workspace. */
export const revokesCredentials = (before: MemberState, after: MemberState): boolean =>
  roleRank(after.role) < roleRank(before.role) || after.status === 'suspended';


export const isMemberStatus = (value: string): value is MemberState['status'] => (memberStatuses as readonly string[]).includes(value);
