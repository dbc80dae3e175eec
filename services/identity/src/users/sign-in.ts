// VerifyPassword for the login pages, within one user realm: every failure is the same error
// (a user of another realm is unknown here), and an unknown e-mail
// costs one scrypt like a wrong password, so neither answer nor timing tells which it was. A
// successful sign-in with a hash of an older cost stores a hash of today's.
import { emailIssue, normaliseEmail, passwordLength } from '@voice/runtime/accounts';
import { serviceError } from '@voice/runtime/errors';
import type { VerifyPasswordRequest } from '@voice/proto/voice/identity/v1/identity';
import type { PasswordHasher } from './passwords.js';
import { realmNamed, realmOf } from '../workspaces/realms.js';
import { activeStanding } from '../credentials/standing.js';
import type { MemberStore, WorkspaceKeyStore } from '../store/store.js';

const wrong = () => serviceError('unauthorized', 'the e-mail or password is wrong');

export async function signIn({ store, passwords }: { store: MemberStore & WorkspaceKeyStore; passwords: PasswordHasher }, request: VerifyPasswordRequest, signal?: AbortSignal) {
  const email = normaliseEmail(request.email);
  // No stored password is longer, and hashing a huge one would only cost time.
  const password = request.password.slice(0, passwordLength.max * 2);
  const realmId = emailIssue(email) === undefined ? await realmNamed(store, request.realmWorkspaceId) : undefined;
  const user = realmId === undefined ? undefined : await store.findUserByEmail(realmId, email);
  if (!user?.passwordHash) {
    await passwords.verifyNothing(password, signal);
    throw wrong();
  }
  const matches = await passwords.verify(password, user.passwordHash, signal);
  if (!matches || password !== request.password) throw wrong();
  // Only the hash that was verified is replaced: a password changed meanwhile stays as it was set.
  if (passwords.needsRehash(user.passwordHash)) await store.replacePasswordHash(user.id, user.passwordHash, await passwords.hash(password));
  // Workspaces under a suspended platform are left out, as suspended ones are, and so are
  // memberships outside the user's realm (written before realms).
  const memberships = [];
  for (const membership of await store.membershipsOf(user.id)) {
    if (realmOf(membership.workspace) === user.realmId && (await activeStanding(store, membership.workspace.id))) memberships.push(membership);
  }
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    memberships: memberships.map(({ workspace, role }) => ({ workspaceId: workspace.id, workspaceName: workspace.name, role })),
  };
}
