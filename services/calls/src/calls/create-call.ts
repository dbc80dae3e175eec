// POST /calls: every precondition in order, each with its own error (the body; the assistant and
// its plan; the calling number and the destination; the funds), then the call is stored queued
// and telephony is asked for the carrier leg. A call the carrier could not take ends failed and
// gives its hold back through the outbox.
import { Code, ConnectError } from '@connectrpc/connect';
import type { JsonObject } from '@bufbuild/protobuf';
import type { WorkspaceCaller } from '@voice/runtime/caller';
import { invalidRequest, serviceError } from '@voice/runtime/errors';
import { isUuid } from '@voice/runtime/ids';
import { idempotencyClaim, type IdempotencyClaim } from '@voice/runtime/idempotency';
import { definedFields, validate } from '@voice/runtime/validation';
import { createCallBodySchema } from '@voice/contracts/calls';
import { parseE164 } from '@voice/contracts/telephony';
import type { CreateCallRequest } from '@voice/proto/voice/calls/v1/calls';
import { callUsageEvent } from '../billing/usage-events.js';
import type { CallsDeps } from '../deps.js';
import { presentCall } from '../presenter.js';
import type { ClaimOutcome } from '../store/store.js';
import { holdCallFunds } from './funds.js';
import { newCall } from './new-call.js';

export function answerForClaimed(outcome: ClaimOutcome) {
  if (outcome.kind === 'key_reused') throw serviceError('conflict', 'this Idempotency-Key was already used with a different request body');
  return { call: presentCall(outcome.call), replayed: true };
}

export async function createCall(deps: CallsDeps, request: CreateCallRequest, caller: WorkspaceCaller) {
  const fields = definedFields({ assistant_id: request.assistantId, from: request.from, to: request.to, variables: request.variables, metadata: request.metadata });
  const input = validate(createCallBodySchema, fields);
  if (!input.ok) throw invalidRequest(input.issues);
  if (request.campaignId && !isUuid(request.campaignId)) throw invalidRequest([{ field: 'campaign_id', issue: 'must be a campaign id' }]);
  const now = deps.now();
  const claim: IdempotencyClaim | undefined = request.idempotencyKey ? idempotencyClaim(request.idempotencyKey, fields, now) : undefined;
  // A retry under a used key answers as the first request did, whatever changed since (API.md 1).
  const earlier = claim && (await deps.store.claimedCall(caller.workspaceId, claim));
  if (earlier) return answerForClaimed(earlier);

  const from = parseE164(input.value.from)!.number;
  const to = parseE164(input.value.to)!.number;
  const assistant = await deps.peers.callAssistant(caller, input.value.assistant_id, await planOf(deps, request, caller));
  const { numberId } = await deps.peers.checkRoute(caller, from, to);
  const call = newCall({
    workspaceId: caller.workspaceId,
    direction: 'outbound',
    from,
    to,
    // A verified caller ID has no workspace number: the platform's carrier places its leg.
    numberId: numberId === '' ? null : numberId,
    assistant,
    variables: (input.value.variables ?? {}) as JsonObject,
    metadata: (input.value.metadata ?? {}) as JsonObject,
    campaignId: request.campaignId || null,
    at: now.toISOString(),
  });
  const id = call.id;
  call.maxDurationSeconds = await holdCallFunds(deps, call, caller.requestId);

  const created = await deps.store.createCall(call, claim);
  if (created.kind !== 'created') {
    // A concurrent request under the same key stored its call first: this one's hold goes back.
    await deps.holds.release({ workspaceId: call.workspaceId, holdId: call.holdId, requestId: caller.requestId });
    return answerForClaimed(created);
  }
  try {
    const { legId } = await deps.peers.placeLeg(caller, {
      callId: id,
      from,
      to,
      numberId,
      maxDurationSeconds: call.maxDurationSeconds,
      mediaParameters: { call_id: id, session_token: deps.tokens.issue(id) },
    });
    await deps.store.recordLeg(id, legId, deps.now().toISOString());
  } catch (error) {
    const failed = await deps.store.failPlacing(id, callUsageEvent(call, 0, deps.now().toISOString()), deps.now().toISOString());
    if (failed) deps.wakeRelay();
    throw placingError(error);
  }
  return { call: presentCall(created.call), replayed: false };
}

/**
 * The plan that decides the assistant's models: the one the gateway authenticated, or for a service
 * calling on a workspace's behalf (the campaigns dialer) the workspace's own plan now; a workspace
 * suspended or gone takes no calls.
 */
async function planOf(deps: CallsDeps, request: CreateCallRequest, caller: WorkspaceCaller): Promise<string> {
  if (request.workspacePlan) return request.workspacePlan;
  const plan = await deps.peers.activePlan(caller);
  if (!plan) throw serviceError('forbidden', 'the workspace takes no calls');
  return plan;
}

/** Telephony's refusal stands as it is; a carrier or service that could not be reached is telephony_unavailable. */
function placingError(error: unknown): ConnectError {
  const connect = ConnectError.from(error);
  if ([Code.Unavailable, Code.DeadlineExceeded, Code.Unimplemented, Code.Internal, Code.Unknown, Code.Canceled].includes(connect.code)) {
    return serviceError('telephony_unavailable', 'the carrier could not be asked to place the call; it was not dialled and nothing was charged, retry shortly', { cause: error });
  }
  return connect;
}
