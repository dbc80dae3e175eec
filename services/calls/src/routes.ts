// The one registration point of the calls service's Connect routes: one service per area.
import type { ConnectRouter } from '@connectrpc/connect';
import { CallsService } from '@voice/proto/voice/calls/v1/calls';
import { CallSessionService } from '@voice/proto/voice/calls/v1/call_sessions';
import { CallIntakeService } from '@voice/proto/voice/calls/v1/call_intake';
import { CallIntake } from './intake/accept-inbound.js';
import { Calls } from './calls/calls.js';
import { CallSessions, type SessionDeps } from './sessions/sessions.js';

export const callsServiceNames = [CallsService.typeName, CallSessionService.typeName, CallIntakeService.typeName];

export const callsRoutes = (deps: SessionDeps) => (router: ConnectRouter) => {
  router.service(CallsService, new Calls(deps));
  router.service(CallSessionService, new CallSessions(deps));
  router.service(CallIntakeService, new CallIntake(deps));
};
