// The one registration point of the calls service's Connect routes: one service per area.
import type { ConnectRouter } from '@connectrpc/connect';
import { CallsService } from '@voice/proto/voice/calls/v1/calls';
import { CallSessionService } from '@voice/proto/voice/calls/v1/call_sessions';
import { CallIntakeService } from '@voice/proto/voice/calls/v1/call_intake';
import { HistoryService } from '@voice/proto/voice/calls/v1/history';
import { History, type HistoryDeps } from './history/history.js';
import { CallIntake } from './intake/accept-inbound.js';
import { Calls } from './calls/calls.js';
import { CallSessions, type SessionDeps } from './sessions/sessions.js';

export const callsServiceNames = [CallsService.typeName, CallSessionService.typeName, CallIntakeService.typeName, HistoryService.typeName];

export const callsRoutes = (deps: SessionDeps, history: HistoryDeps) => (router: ConnectRouter) => {
  router.service(CallsService, new Calls(deps));
  router.service(CallSessionService, new CallSessions(deps));
  router.service(CallIntakeService, new CallIntake(deps));
  router.service(HistoryService, new History(history));
};
