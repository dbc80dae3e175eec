// The one registration point of the platform-users service's Connect routes.
import type { ConnectRouter } from '@connectrpc/connect';
import { CustomDomainService } from '@voice/proto/voice/platform/v1/custom_domains';
import { CustomDomainServiceImpl, type CustomDomainDeps } from './service/custom-domains.js';

export const platformUsersServiceNames = [CustomDomainService.typeName];

export const platformUsersRoutes = (deps: CustomDomainDeps) => (router: ConnectRouter) => {
  router.service(CustomDomainService, new CustomDomainServiceImpl(deps));
};
