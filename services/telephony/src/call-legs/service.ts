// CallLegService: the calls service's way to place and end the carrier legs of its calls. Only
// platform services may call it, on behalf of the workspace the request names. CarrierVoiceService:
// the carriers' voice webhooks the gateway hands in.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import type { CallLegService, EndCallLegRequest, PlaceCallLegRequest } from '@voice/proto/voice/telephony/v1/call_legs';
import type { CarrierVoiceService, HandleVoiceWebhookRequest } from '@voice/proto/voice/telephony/v1/carrier_voice';
import { callerOf, internalCallerFor } from '@voice/runtime/caller';
import type { TelephonyDeps } from '../deps.js';
import { callLegs } from './call-legs.js';
import { voiceWebhooks } from './voice-webhooks.js';

const checkCaller = (context: HandlerContext, workspaceId: string) => internalCallerFor(context, workspaceId, 'only the calls service places and ends call legs');

export class CallLegServiceImpl implements ServiceImpl<typeof CallLegService> {
  private readonly legs: ReturnType<typeof callLegs>;

  constructor(deps: TelephonyDeps) {
    this.legs = callLegs(deps);
  }

  placeCallLeg(request: PlaceCallLegRequest, context: HandlerContext) {
    checkCaller(context, request.workspaceId);
    return this.legs.placeCallLeg(request);
  }

  endCallLeg(request: EndCallLegRequest, context: HandlerContext) {
    checkCaller(context, request.workspaceId);
    return this.legs.endCallLeg(request);
  }
}

export class CarrierVoiceServiceImpl implements ServiceImpl<typeof CarrierVoiceService> {
  private readonly webhooks: ReturnType<typeof voiceWebhooks>;

  constructor(deps: TelephonyDeps) {
    this.webhooks = voiceWebhooks(deps);
  }

  handleVoiceWebhook(request: HandleVoiceWebhookRequest, context: HandlerContext) {
    // A webhook names no workspace: any signed caller (the gateway) may hand one in; its signature decides.
    callerOf(context);
    return this.webhooks.handleVoiceWebhook(request);
  }
}
