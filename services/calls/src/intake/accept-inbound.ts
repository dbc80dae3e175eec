// The CallIntakeService: telephony hands over a carrier's inbound call on a number assigned to an
// assistant, before the carrier is told where to send the media. The call is held like an outbound
// one (the assistant's longest length, or what the wallet covers) and stored on the ringing leg;
// what cannot run (no such assistant or workspace, a plan that excludes the model, no funds) is
// refused with a reason, and the carrier rejects the call. A retry for the same leg answers the same
// call and holds nothing twice. Metadata (a sandbox caller's script) is kept as POST /calls keeps it.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { Code, ConnectError } from '@connectrpc/connect';
import type { JsonObject } from '@bufbuild/protobuf';
import { internalCallerFor, serviceCaller, type WorkspaceCaller } from '@voice/runtime/caller';
import { invalidRequest } from '@voice/runtime/errors';
import { idempotencyClaim } from '@voice/runtime/idempotency';
import { isUuid } from '@voice/runtime/ids';
import { validate } from '@voice/runtime/validation';
import { callMetadataSchema } from '@voice/contracts/calls';
import { parseE164 } from '@voice/contracts/telephony';
import type { AcceptInboundCallRequest, CallIntakeService } from '@voice/proto/voice/calls/v1/call_intake';
import type { CallsDeps } from '../deps.js';
import { holdCallFunds } from '../calls/funds.js';
import { newCall } from '../calls/new-call.js';
import type { CallAssistant } from '../peers/peers.js';
import type { CallView } from '../store/store.js';

/** Telephony's leg is ringing when it hands the call over (its sequence 1). */
const ringingLegSequence = 1;

export class CallIntake implements ServiceImpl<typeof CallIntakeService> {
  constructor(private readonly deps: CallsDeps) {}

  async acceptInboundCall(request: AcceptInboundCallRequest, context: HandlerContext) {
    const signed = internalCallerFor(context, request.workspaceId, 'only telephony may hand over inbound calls');
    const from = parseE164(request.from)?.number;
    const to = parseE164(request.to)?.number;
    const metadata = validate(callMetadataSchema, request.metadata ?? {}, ['metadata']);
    const issues = [
      ...(isUuid(request.workspaceId) ? [] : [{ field: 'workspace_id', issue: 'must be a UUID' }]),
      ...(isUuid(request.numberId) ? [] : [{ field: 'number_id', issue: 'must be a UUID' }]),
      ...(isUuid(request.assistantId) ? [] : [{ field: 'assistant_id', issue: 'must be a UUID' }]),
      ...(from ? [] : [{ field: 'from', issue: 'must be a valid phone number' }]),
      ...(to ? [] : [{ field: 'to', issue: 'must be a valid phone number' }]),
      ...(request.legId.length > 0 && request.legId.length <= 64 ? [] : [{ field: 'leg_id', issue: 'must be 1 to 64 characters' }]),
      ...(metadata.ok ? [] : metadata.issues),
    ];
    if (issues.length > 0) throw invalidRequest(issues);
    const caller: WorkspaceCaller = serviceCaller('calls', request.workspaceId, signed.requestId);
    const now = this.deps.now();
    // The leg names the call: telephony's retry finds the call the first attempt made.
    const claim = idempotencyClaim(`inbound-leg:${request.legId}`, { number: request.numberId, assistant: request.assistantId, from, to, metadata: request.metadata ?? {} }, now);
    const earlier = await this.deps.store.claimedCall(caller.workspaceId, claim);
    if (earlier) return earlier.kind === 'replayed' ? this.accepted(earlier.call) : refused('the leg was handed over with other details before');

    const plan = await this.deps.peers.activePlan(caller);
    if (!plan) return refused('the workspace takes no calls');
    let assistant: CallAssistant;
    try {
      assistant = await this.deps.peers.callAssistant(caller, request.assistantId, plan);
    } catch (error) {
      const code = ConnectError.from(error).code;
      if (code === Code.NotFound || code === Code.PermissionDenied || code === Code.FailedPrecondition) return refused('the assistant cannot take calls');
      throw error;
    }
    const call = newCall({
      workspaceId: caller.workspaceId,
      direction: 'inbound',
      from: from!,
      to: to!,
      numberId: request.numberId,
      assistant,
      variables: {},
      metadata: (metadata.ok ? metadata.value : {}) as JsonObject,
      at: now.toISOString(),
      status: 'ringing',
      legId: request.legId,
      legSequence: ringingLegSequence,
    });
    try {
      call.maxDurationSeconds = await holdCallFunds(this.deps, call, caller.requestId);
    } catch (error) {
      if (ConnectError.from(error).code === Code.FailedPrecondition) return refused('not enough funds for a minute of the call');
      throw error;
    }
    const created = await this.deps.store.createCall(call, claim);
    if (created.kind === 'created') return this.accepted(created.call);
    await this.deps.holds.release({ workspaceId: call.workspaceId, holdId: call.holdId, requestId: caller.requestId });
    return created.kind === 'replayed' ? this.accepted(created.call) : refused('the leg was handed over with other details before');
  }

  private accepted(call: CallView) {
    return { callId: call.id, mediaParameters: { call_id: call.id, session_token: this.deps.tokens.issue(call.id) }, refusal: '' };
  }
}

const refused = (refusal: string) => ({ callId: '', mediaParameters: {}, refusal });
