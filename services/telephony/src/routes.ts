// The one registration point of the telephony service's Connect routes.
import type { ConnectRouter } from '@connectrpc/connect';
import { SipTrunkService } from '@voice/proto/voice/telephony/v1/sip_trunks';
import { TelephonyService } from '@voice/proto/voice/telephony/v1/telephony';
import { CallLegService } from '@voice/proto/voice/telephony/v1/call_legs';
import { CarrierVoiceService } from '@voice/proto/voice/telephony/v1/carrier_voice';
import { CallRouteService } from '@voice/proto/voice/telephony/v1/call_routes';
import { CallLegServiceImpl, CarrierVoiceServiceImpl } from './call-legs/service.js';
import { CallRoutes } from './call-legs/call-routes.js';
import type { TelephonyDeps } from './deps.js';
import { TelephonyServiceImpl } from './service.js';
import { SipTrunks } from './sip/sip-trunks.js';
import { CallerIdService } from '@voice/proto/voice/telephony/v1/caller_ids';
import { CallerIds } from './caller-ids/caller-ids.js';
import { codeSms } from './caller-ids/code-sms.js';
import { codeCall } from './caller-ids/code-call.js';
import { SandboxService } from '@voice/proto/voice/telephony/v1/sandbox';
import { SandboxSurface } from './sandbox/sandbox-surface.js';

export const telephonyServiceNames = [TelephonyService.typeName, CallLegService.typeName, CarrierVoiceService.typeName, SipTrunkService.typeName, CallerIdService.typeName, CallRouteService.typeName, SandboxService.typeName];

export const telephonyRoutes = (deps: TelephonyDeps) => (router: ConnectRouter) => {
  router.service(TelephonyService, new TelephonyServiceImpl(deps));
  router.service(CallLegService, new CallLegServiceImpl(deps));
  router.service(CarrierVoiceService, new CarrierVoiceServiceImpl(deps));
  router.service(CallRouteService, new CallRoutes(deps.store));
  router.service(SipTrunkService, new SipTrunks({ store: deps.store, box: deps.box, checker: deps.sipChecker, now: deps.now }));
  router.service(CallerIdService, new CallerIds({ store: deps.store, codes: deps.verificationCodes, limits: deps.codeSendLimits, sendCode: { sms: codeSms(deps), call: codeCall(deps) }, now: deps.now }));
  router.service(SandboxService, new SandboxSurface(deps));
};
