// The platform-users service's two Connect services: CustomDomainService (custom domains of
// white-label workspaces) and PlatformUserService (a platform's users, their invitations and
// credits). Each only delegates to the area that owns the RPC.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import type { AddCustomDomainRequest, CustomDomainService, ResolveCustomDomainRequest } from '@voice/proto/voice/platform/v1/custom_domains';
import type {
  AcceptInvitationRequest,
  GetInvitationRequest,
  GetPlatformUserRequest,
  InviteMemberRequest,
  IssuePlatformUserTokenRequest,
  ListPlatformUsersRequest,
  LoginPlatformUserRequest,
  LogoutPlatformUserRequest,
  PlatformUserService,
  RegisterPlatformUserRequest,
  SetPlatformUserStatusRequest,
  TransferPlatformCreditsRequest,
} from '@voice/proto/voice/platform/v1/platform_users';
import { CustomDomains, type CustomDomainDeps } from './custom-domains/custom-domains.js';
import { PlatformUsers, type PlatformUserDeps } from './users/platform-users.js';

export type { CustomDomainDeps } from './custom-domains/custom-domains.js';
export type { PlatformUserDeps } from './users/platform-users.js';

export class CustomDomainServiceImpl implements ServiceImpl<typeof CustomDomainService> {
  private readonly domains: CustomDomains;

  constructor(deps: CustomDomainDeps) {
    this.domains = new CustomDomains(deps);
  }

  getCustomDomain(request: unknown, context: HandlerContext) {
    return this.domains.getCustomDomain(request, context);
  }

  addCustomDomain(request: AddCustomDomainRequest, context: HandlerContext) {
    return this.domains.addCustomDomain(request, context);
  }

  verifyCustomDomain(request: unknown, context: HandlerContext) {
    return this.domains.verifyCustomDomain(request, context);
  }

  removeCustomDomain(request: unknown, context: HandlerContext) {
    return this.domains.removeCustomDomain(request, context);
  }

  resolveCustomDomain(request: ResolveCustomDomainRequest, context: HandlerContext) {
    return this.domains.resolveCustomDomain(request, context);
  }
}

export class PlatformUserServiceImpl implements ServiceImpl<typeof PlatformUserService> {
  private readonly users: PlatformUsers;

  constructor(deps: PlatformUserDeps) {
    this.users = new PlatformUsers(deps);
  }

  listPlatformUsers(request: ListPlatformUsersRequest, context: HandlerContext) {
    return this.users.listPlatformUsers(request, context);
  }

  getPlatformUser(request: GetPlatformUserRequest, context: HandlerContext) {
    return this.users.getPlatformUser(request, context);
  }

  registerPlatformUser(request: RegisterPlatformUserRequest, context: HandlerContext) {
    return this.users.registerPlatformUser(request, context);
  }

  issuePlatformUserToken(request: IssuePlatformUserTokenRequest, context: HandlerContext) {
    return this.users.issuePlatformUserToken(request, context);
  }

  loginPlatformUser(request: LoginPlatformUserRequest, context: HandlerContext) {
    return this.users.loginPlatformUser(request, context);
  }

  logoutPlatformUser(request: LogoutPlatformUserRequest, context: HandlerContext) {
    return this.users.logoutPlatformUser(request, context);
  }

  transferPlatformCredits(request: TransferPlatformCreditsRequest, context: HandlerContext) {
    return this.users.transferPlatformCredits(request, context);
  }

  setPlatformUserStatus(request: SetPlatformUserStatusRequest, context: HandlerContext) {
    return this.users.setPlatformUserStatus(request, context);
  }

  getInvitation(request: GetInvitationRequest, context: HandlerContext) {
    return this.users.getInvitation(request, context);
  }

  acceptInvitation(request: AcceptInvitationRequest, context: HandlerContext) {
    return this.users.acceptInvitation(request, context);
  }

  inviteMember(request: InviteMemberRequest, context: HandlerContext) {
    return this.users.inviteMember(request, context);
  }
}
