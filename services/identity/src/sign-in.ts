// VerifyPassword for the login page: every failure is the same error, and an unknown e-mail
// costs one scrypt like a wrong password, so neither answer nor timing tells which it was.
import { serviceError, emailIssue, normaliseEmail, passwordLength } from '@voice/runtime';
import type { VerifyPasswordRequest } from '@voice/proto/voice/identity/v1/identity';
import { verifyNothing, verifyPassword } from './passwords.js';
import type { IdentityStore } from './store/store.js';

const wrong = () => serviceError('unauthorized', 'the e-mail or password is wrong');

export async function signIn(store: IdentityStore, request: VerifyPasswordRequest) {
  const email = normaliseEmail(request.email);
  // No stored password is longer, and hashing a huge one would only cost time.
  const password = request.password.slice(0, passwordLength.max * 2);
  const user = emailIssue(email) === undefined ? await store.findUserByEmail(email) : undefined;
  if (!user?.passwordHash) {
    await verifyNothing(password);
    throw wrong();
  }
  const matches = await verifyPassword(password, user.passwordHash);
  if (!matches || password !== request.password) throw wrong();
  const memberships = await store.membershipsOf(user.id);
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    memberships: memberships.map(({ workspace, role }) => ({ workspaceId: workspace.id, workspaceName: workspace.name, role })),
  };
}
