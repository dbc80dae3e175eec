// SandboxService: the sandbox carrier's test surface. It shows what a phone reached through the
// sandbox heard (a caller ID's code said in a call), and plays a caller calling one of the
// workspace's numbers, through the same hand-over to the calls service as a carrier's inbound call.
// Everything it reads or calls is the calling workspace's.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { workspaceCallerOf } from '@voice/runtime/caller';
import type { JsonObject } from '@bufbuild/protobuf';
import { notFound, serviceError } from '@voice/runtime/errors';
import { toTimestamp } from '@voice/runtime/time';
import type { GetVerificationCallRequest, SandboxService, SimulateInboundCallRequest } from '@voice/proto/voice/telephony/v1/sandbox';
import { parseE164, simulateInboundCallBodySchema } from '@voice/contracts/telephony';
import { offerInboundCall } from '../call-legs/inbound-offer.js';
import { newSandboxCallId } from '../carriers/sandbox-calls.js';
import { SandboxCarrier } from '../carriers/sandbox.js';
import type { TelephonyDeps } from '../deps.js';
import { loadOr404, parseInput } from '../input.js';
import type { CallerIdStore, CallLegStore, ConnectionStore, NumberStore } from '../store/store.js';

export class SandboxSurface implements ServiceImpl<typeof SandboxService> {
  constructor(private readonly deps: TelephonyDeps<CallerIdStore & NumberStore & ConnectionStore & CallLegStore>) {}

  async getVerificationCall(request: GetVerificationCallRequest, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    const callerId = await loadOr404('caller ID', request.callerId, (id) => this.deps.store.getCallerId(workspaceId, id));
    const carrier = this.deps.carriers.platform();
    const heard = carrier instanceof SandboxCarrier ? carrier.heardCall(callerId.id) : undefined;
    if (!heard) throw notFound('verification call');
    return { call: { from: heard.from, to: heard.to, speech: heard.speech, answeredAt: toTimestamp(heard.answeredAt) } };
  }

  async simulateInboundCall(request: SimulateInboundCallRequest, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    const input = parseInput(simulateInboundCallBodySchema, { to: request.to, from: request.from, metadata: request.metadata });
    const from = parseE164(input.from)!.number;
    const { store } = this.deps;
    const number = await store.findNumber(workspaceId, parseE164(input.to)!.number);
    if (!number) throw notFound('phone number');
    const connection = number.carrierConnectionId ? await store.getConnection(workspaceId, number.carrierConnectionId) : undefined;
    const carrier = this.deps.carriers.forNumber(number, connection)?.adapter;
    if (!(carrier instanceof SandboxCarrier)) throw serviceError('telephony_configuration_error', 'the number is not carried by the sandbox: its calls come from its carrier');
    if (!number.voiceCapable) throw serviceError('telephony_configuration_error', 'the number is not voice-capable');
    const assistantId = number.assistantId;
    if (!assistantId) throw serviceError('telephony_configuration_error', 'the number is given to no assistant (PATCH /phone-numbers/{id} with assistant_id): a real caller would be rejected');

    const carrierCallId = newSandboxCallId();
    const offer = await offerInboundCall(this.deps, { number: { ...number, assistantId }, carrierConnectionId: number.carrierConnectionId, carrierCallId, from, metadata: input.metadata as JsonObject | undefined });
    if (offer.kind === 'failed') throw serviceError('telephony_unavailable', 'the call could not be handed over; nothing was charged, retry shortly');
    if (offer.kind === 'refused') throw serviceError('conflict', `the call was refused, as a real caller’s would be: ${offer.reason}`);
    carrier.receiveCall({ legId: offer.leg.id, carrierCallId, maxDurationSeconds: offer.leg.maxDurationSeconds, mediaParameters: offer.mediaParameters });
    return { callId: offer.callId };
  }
}
