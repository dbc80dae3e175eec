// The runtime's role-to-scope mapping and the OAuth error option, as the identity service relies on them.
import { Code } from '@connectrpc/connect';
import { canonicalScopes, isRole, roleRank, roleScopes, scopesWithinRole } from '@voice/runtime/access';
import { errorDetailOf, serviceError } from '@voice/runtime/errors';

test('owners and admins hold every canonical scope', () => {
  expect(roleScopes('owner')).toEqual(canonicalScopes);
  expect(roleScopes('admin')).toEqual(canonicalScopes);
});

test('members hold every read scope and the day-to-day writes, never settings, billing, platform or numbers', () => {
  const scopes = roleScopes('member');
  expect(scopes.filter((s) => s.endsWith(':read'))).toEqual(canonicalScopes.filter((s) => s.endsWith(':read')));
  expect(scopes.filter((s) => s.endsWith(':write')).sort()).toEqual(
    ['assistants:write', 'calls:write', 'campaigns:write', 'leads:write', 'segments:write', 'knowledge:write', 'loop:write'].sort(),
  );
  for (const scope of ['settings:write', 'billing:write', 'platform:write', 'phone_numbers:write', 'sip_trunks:write']) expect(scopes).not.toContain(scope);
});

test('roles are owner > admin > member, and nothing else is a role', () => {
  expect(roleRank('owner')).toBeGreaterThan(roleRank('admin'));
  expect(roleRank('admin')).toBeGreaterThan(roleRank('member'));
  expect(['owner', 'admin', 'member'].every(isRole)).toBe(true);
  for (const value of ['Owner', 'root', '', undefined, 3]) expect(isRole(value)).toBe(false);
});

test('scopesWithinRole keeps what the role allows and narrows a write beyond it to the read it implies', () => {
  expect(scopesWithinRole(['calls:write', 'settings:write', 'settings:read', 'billing:read', 'platform:write'], 'member')).toEqual([
    'calls:write',
    'settings:read',
    'billing:read',
    'platform:read',
  ]);
  expect(scopesWithinRole(['settings:write', 'voices:read'], 'admin')).toEqual(['settings:write', 'voices:read']);
  expect(scopesWithinRole([], 'owner')).toEqual([]);
});

test('serviceError carries an OAuth error code; errorDetailOf gives it back, and nothing when absent', () => {
  const oauth = serviceError('invalid_request', 'bad grant', { oauthError: 'invalid_grant', fields: [{ field: 'code', issue: 'used' }] });
  expect(oauth.code).toBe(Code.InvalidArgument);
  expect(errorDetailOf(oauth)).toEqual({ reason: 'invalid_request', fields: [{ field: 'code', issue: 'used' }], oauthError: 'invalid_grant' });
  expect(errorDetailOf(serviceError('conflict', 'x')).oauthError).toBeUndefined();
});
