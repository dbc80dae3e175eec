// The one registration point of the telephony service's Connect routes.
import type { ConnectRouter } from '@connectrpc/connect';
import { TelephonyService } from '@voice/proto/voice/telephony/v1/telephony';
import { CallRouteService } from '@voice/proto/voice/telephony/v1/call_routes';
import { CallRoutes } from './calls/call-routes.js';
import type { TelephonyDeps } from './deps.js';
import { TelephonyServiceImpl } from './service.js';

export const telephonyServiceNames = [TelephonyService.typeName, CallRouteService.typeName];

export const telephonyRoutes = (deps: TelephonyDeps) => (router: ConnectRouter) => {
  router.service(TelephonyService, new TelephonyServiceImpl(deps));
  router.service(CallRouteService, new CallRoutes(deps.store));
};
