// The one registration point of the billing service's Connect routes.
import type { ConnectRouter } from '@connectrpc/connect';
import { BillingService } from '@voice/proto/voice/billing/v1/billing';
import { BillingServiceImpl, type BillingDeps } from './service.js';

export const billingServiceNames = [BillingService.typeName];

export const billingRoutes = (deps: BillingDeps) => (router: ConnectRouter) => {
  router.service(BillingService, new BillingServiceImpl(deps));
};
