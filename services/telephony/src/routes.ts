// The one registration point of the telephony service's Connect routes.
import type { ConnectRouter, ServiceImpl } from '@connectrpc/connect';
import { TelephonyService } from '@voice/proto/voice/telephony/v1/telephony';
import { callbackHandlers } from './service/callbacks.js';
import { campaignHandlers } from './service/campaigns.js';
import { connectionHandlers } from './service/connections.js';
import type { TelephonyDeps } from './service/deps.js';
import { numberHandlers } from './service/numbers.js';
import { smsHandlers } from './service/sms.js';
import { suppressionHandlers } from './service/suppressions.js';

export const telephonyServiceNames = [TelephonyService.typeName];

export function telephonyService(deps: TelephonyDeps): ServiceImpl<typeof TelephonyService> {
  return {
    ...numberHandlers(deps),
    ...connectionHandlers(deps),
    ...campaignHandlers(deps),
    ...suppressionHandlers(deps),
    ...smsHandlers(deps),
    ...callbackHandlers(deps),
  };
}

export const telephonyRoutes = (deps: TelephonyDeps) => (router: ConnectRouter) => {
  router.service(TelephonyService, telephonyService(deps));
};
