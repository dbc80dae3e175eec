// Member roles of a workspace, their order, and the one mapping from a role to the scopes it may exercise.
import { canonicalScopes, impliedRead } from './scopes.js';

export const roles = ['owner', 'admin', 'member'] as const;
export type Role = (typeof roles)[number];

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (roles as readonly string[]).includes(value);

const ranks: Record<Role, number> = { owner: 3, admin: 2, member: 1 };

/** Higher is more: owner > admin > member. */
export const roleRank = (role: Role): number => ranks[role];

/** The writes a member holds besides every read: day-to-day work, never settings, billing or numbers. */
const memberWrites = [
  'assistants:write',
  'calls:write',
  'campaigns:write',
  'leads:write',
  'segments:write',
  'knowledge:write',
  'loop:write',
];

const scopesOfRole: Record<Role, readonly string[]> = {
  owner: canonicalScopes,
  admin: canonicalScopes,
  member: Object.freeze(canonicalScopes.filter((scope) => scope.endsWith(':read') || memberWrites.includes(scope))),
};

export const roleScopes = (role: Role): readonly string[] => scopesOfRole[role];

/**
 * What a credential granted `scopes` may exercise under `role`: each scope the role allows, and a
 * *:write the role does not allow narrowed to the *:read it implies when the role allows that.
 */
export function scopesWithinRole(scopes: readonly string[], role: Role): string[] {
  const allowed = scopesOfRole[role];
  const within = scopes.flatMap((scope) => {
    if (allowed.includes(scope)) return [scope];
    const read = impliedRead(scope);
    return read !== undefined && allowed.includes(read) ? [read] : [];
  });
  return [...new Set(within)];
}

export const memberStatuses = ['active', 'suspended'] as const;
export type MemberStatus = (typeof memberStatuses)[number];
