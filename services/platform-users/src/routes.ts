// The one registration point of the platform-users service's Connect routes.
import type { ConnectRouter } from '@connectrpc/connect';
import { CustomDomainService } from '@voice/proto/voice/platform/v1/custom_domains';
import { NoticeService } from '@voice/proto/voice/platform/v1/notices';
import { PlatformUserService } from '@voice/proto/voice/platform/v1/platform_users';
import { Notices, type NoticeDeps } from './notices/notices.js';
import { CustomDomainServiceImpl, PlatformUserServiceImpl, type CustomDomainDeps, type PlatformUserDeps } from './service.js';

export const platformUsersServiceNames = [CustomDomainService.typeName, PlatformUserService.typeName, NoticeService.typeName];

export interface PlatformUsersRoutesDeps {
  customDomains: CustomDomainDeps;
  platformUsers: PlatformUserDeps;
  notices: NoticeDeps;
}

export const platformUsersRoutes = (deps: PlatformUsersRoutesDeps) => (router: ConnectRouter) => {
  router.service(CustomDomainService, new CustomDomainServiceImpl(deps.customDomains));
  router.service(PlatformUserService, new PlatformUserServiceImpl(deps.platformUsers));
  const notices = new Notices(deps.notices);
  router.service(NoticeService, { sendWorkspaceNotice: (request, context) => notices.send(request, context) });
};
