// The one registration point of the platform-users service's Connect routes.
import type { ConnectRouter } from '@connectrpc/connect';
import { CustomDomainService } from '@voice/proto/voice/platform/v1/custom_domains';
import { PlatformUserService } from '@voice/proto/voice/platform/v1/platform_users';
import { CustomDomainServiceImpl, PlatformUserServiceImpl, type CustomDomainDeps, type PlatformUserDeps } from './service.js';

export const platformUsersServiceNames = [CustomDomainService.typeName, PlatformUserService.typeName];

export interface PlatformUsersRoutesDeps {
  customDomains: CustomDomainDeps;
  platformUsers: PlatformUserDeps;
}

export const platformUsersRoutes = (deps: PlatformUsersRoutesDeps) => (router: ConnectRouter) => {
  router.service(CustomDomainService, new CustomDomainServiceImpl(deps.customDomains));
  router.service(PlatformUserService, new PlatformUserServiceImpl(deps.platformUsers));
};
