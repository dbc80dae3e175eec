// IssueUserTokens, RevokeUserCredentials and SetInitialPassword for the platform-users service:
// a user's credentials, managed on the user's behalf without its password.
import { canonicalScopes } from '@voice/runtime/access';
import { passwordIssue } from '@voice/runtime/accounts';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { isUuid } from '@voice/runtime/ids';
import type { Notifier } from '@voice/runtime/nats';
import type {
  IssueUserTokensRequest,
  RevokeUserCredentialsRequest,
  SetInitialPasswordRequest,
} from '@voice/proto/voice/identity/v1/identity';
import { mintTokens, newGrant } from '../oauth/mint.js';
import { platformClient, platformClientId } from '../oauth/platform-client.js';
import type { PasswordHasher } from './passwords.js';
import { announceRevoked } from '../credentials/revocations.js';
import { isResourceIndicator } from '../domain/resource.js';
import { activeMember } from '../credentials/standing.js';
import type { MemberRecord, MemberStore, OAuthStore, WorkspaceKeyStore } from '../store/store.js';

const passwordAlreadySet = () => serviceError('conflict', 'the password is already set');

export class UserCredentials {
  constructor(private readonly deps: { store: OAuthStore & MemberStore & WorkspaceKeyStore; passwords: PasswordHasher; notifier: Notifier; now: () => Date }) {}

  /** A grant of the built-in platform client with every canonical scope; the role narrows them when used. */
  async issueTokens(request: IssueUserTokensRequest) {
    if (request.resource && !isResourceIndicator(request.resource)) throw invalidRequest([{ field: 'resource', issue: 'must be an absolute URI without a fragment' }]);
    const member = await this.member(request.workspaceId, request.userId);
    // A workspace under a suspended platform is suspended with it.
    if (!(await activeMember(this.deps.store, member.workspaceId, member.userId))) throw serviceError('conflict', 'the user or its workspace is suspended');
    const now = this.deps.now();
    const grant = newGrant(
      { clientId: platformClientId, userId: member.userId, workspaceId: member.workspaceId, scopes: [...canonicalScopes], resource: request.resource },
      now,
    );
    const minted = mintTokens(platformClient(now.toISOString()), grant, grant.scopes, member.role, now);
    await this.deps.store.issueGrant(grant, minted.records);
    const { accessToken, tokenType, expiresIn, refreshToken } = minted.response;
    return { accessToken, tokenType, expiresIn, refreshToken, clientId: platformClientId };
  }

  async revoke(request: RevokeUserCredentialsRequest) {
    const member = await this.member(request.workspaceId, request.userId);
    const revoked = await this.deps.store.revokeUserCredentials(member.workspaceId, member.userId);
    await announceRevoked(this.deps.notifier, { credentialIds: revoked });
    return { revokedTokens: revoked.length };
  }

  async setInitialPassword(request: SetInitialPasswordRequest, signal?: AbortSignal) {
    const issue = passwordIssue(request.password);
    if (issue) throw invalidRequest([{ field: 'password', issue }]);
    const user = isUuid(request.userId) ? await this.deps.store.getUser(request.userId) : undefined;
    if (!user) throw notFound('user');
    if (user.passwordHash !== null) throw passwordAlreadySet();
    // Only the first of concurrent calls finds the password still unset.
    if (!(await this.deps.store.setInitialPassword(user.id, await this.deps.passwords.hash(request.password, signal)))) throw passwordAlreadySet();
    return {};
  }

  private async member(workspaceId: string, userId: string): Promise<MemberRecord> {
    const member = isUuid(workspaceId) && isUuid(userId) ? await this.deps.store.getMember(workspaceId, userId) : undefined;
    if (!member) throw notFound('member');
    return member;
  }
}
