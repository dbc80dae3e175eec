// AcceptMembership for the invitation page: the invitee of a pending membership chooses its first
// password, or proves the one it has, and the membership becomes active. The e-mailed link is the
// proof of the address; the password is the proof of the account, so neither alone joins anyone.
import { passwordIssue, passwordLength } from '@voice/runtime/accounts';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { isUuid } from '@voice/runtime/ids';
import type { StandingStore } from '../credentials/standing.js';
import type { AcceptMembershipRequest } from '@voice/proto/voice/identity/v1/identity';
import type { PasswordHasher } from '../users/passwords.js';
import type { MemberStore } from '../store/store.js';

const noInvitation = () => notFound('invitation');

export class MembershipAcceptance {
  constructor(private readonly deps: { store: MemberStore & StandingStore; passwords: PasswordHasher }) {}

  async accept(request: AcceptMembershipRequest, signal?: AbortSignal): Promise<{ email: string }> {
    const { store, passwords } = this.deps;
    const member = isUuid(request.workspaceId) && isUuid(request.userId) ? await store.getMember(request.workspaceId, request.userId) : undefined;
    const user = member?.status === 'invited' ? await store.getUser(member.userId) : undefined;
    if (!member || !user) throw noInvitation();
    if (user.passwordHash === null) {
      const issue = passwordIssue(request.password);
      if (issue) throw invalidRequest([{ field: 'password', issue }]);
      // Only the first of concurrent accepts finds the password unset; a later one signs in instead.
      if (!(await store.setInitialPassword(user.id, await passwords.hash(request.password, signal)))) {
        throw serviceError('conflict', 'a password was chosen meanwhile; sign in with it to accept');
      }
    } else {
      const password = request.password.slice(0, passwordLength.max * 2);
      if (password !== request.password || !(await passwords.verify(password, user.passwordHash, signal))) {
        throw serviceError('unauthorized', 'the password is wrong');
      }
    }
    const outcome = await store.changeMember(member.workspaceId, user.id, { role: member.role, status: 'invited' }, { role: member.role, status: 'active' }, false);
    if (outcome.kind !== 'changed') throw noInvitation();
    return { email: user.email };
  }
}
