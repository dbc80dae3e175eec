// The one registration point of the identity service's Connect routes.
import type { ConnectRouter } from '@connectrpc/connect';
import { IdentityService } from '@voice/proto/voice/identity/v1/identity';
import { IdentityServiceImpl, type IdentityDeps } from './service.js';

export const identityServiceNames = [IdentityService.typeName];

export const identityRoutes = (deps: IdentityDeps) => (router: ConnectRouter) => {
  router.service(IdentityService, new IdentityServiceImpl(deps));
};
