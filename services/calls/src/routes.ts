// The one registration point of the calls service's Connect routes: one service per area.
import type { ConnectRouter } from '@connectrpc/connect';
import { CallsService } from '@voice/proto/voice/calls/v1/calls';
import { Calls } from './calls/calls.js';
import type { CallsDeps } from './deps.js';

export const callsServiceNames = [CallsService.typeName];

export const callsRoutes = (deps: CallsDeps) => (router: ConnectRouter) => {
  router.service(CallsService, new Calls(deps));
};
