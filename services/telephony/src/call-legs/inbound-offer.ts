// A carrier's call to a workspace number given to an assistant, handed to the calls service: the
// ringing leg is stored first (so every report of the call finds it), the calls service takes the
// call (AcceptInboundCall) or refuses it, and a taken call is attached to the leg with its session.
// A call that is not taken leaves its leg canceled. The carriers' voice webhook and the sandbox's
// simulated inbound call both come this way.
import type { JsonObject } from '@bufbuild/protobuf';
import { newId } from '@voice/runtime/ids';
import type { CallLegRecord, CallLegStore, NumberRecord } from '../store/store.js';
import type { TelephonyDeps } from '../deps.js';
import { startedLeg } from '../domain/call-legs.js';
import { maxCallSeconds } from '@voice/contracts/calls';
import { recordLegProgress } from './leg-events.js';

export interface InboundCall {
  /** A voice-capable number given to an assistant. */
  number: NumberRecord & { assistantId: string };
  /** The carrier carrying the call (null: the platform's). */
  carrierConnectionId: string | null;
  carrierCallId: string;
  /** E.164 of the caller. */
  from: string;
  /** The call's metadata for the voice runtime (a sandbox caller's script); carriers' calls carry none. */
  metadata?: JsonObject;
}

export type InboundOffer =
  | { kind: 'taken'; leg: CallLegRecord; callId: string; mediaParameters: Record<string, string> }
  /** The calls service refused the call (the reason is its own), or the call ended before it was taken. */
  | { kind: 'refused'; reason: string }
  /** The calls service could not be asked. */
  | { kind: 'failed' };

export async function offerInboundCall(deps: TelephonyDeps<CallLegStore>, call: InboundCall): Promise<InboundOffer> {
  const { store } = deps;
  if (!deps.calls) return { kind: 'failed' };
  const at = deps.now().toISOString();
  const leg = startedLeg(
    {
      id: newId(),
      workspaceId: call.number.workspaceId,
      callId: null,
      direction: 'inbound',
      numberId: call.number.id,
      carrierConnectionId: call.carrierConnectionId,
      carrierCallId: call.carrierCallId,
      from: call.from,
      to: call.number.number,
      maxDurationSeconds: maxCallSeconds,
      sealedMediaParameters: deps.box.seal('{}'),
      status: 'ringing',
    },
    at,
  );
  await store.insertLeg(leg, undefined);
  let outcome: InboundOffer = { kind: 'failed' };
  try {
    const accepted = await deps.calls.acceptInboundCall({
      workspaceId: leg.workspaceId,
      numberId: call.number.id,
      assistantId: call.number.assistantId,
      from: call.from,
      to: leg.to,
      legId: leg.id,
      metadata: call.metadata,
    });
    if (accepted.callId !== '') {
      const attached = await store.attachCall(leg.id, accepted.callId, deps.box.seal(JSON.stringify(accepted.mediaParameters)), deps.now().toISOString());
      if (attached) return { kind: 'taken', leg: attached, callId: accepted.callId, mediaParameters: accepted.mediaParameters };
      outcome = { kind: 'refused', reason: 'the call ended before it was taken' };
    } else {
      outcome = { kind: 'refused', reason: accepted.refusal };
    }
  } catch (error) {
    deps.logger.warn('the calls service did not take an inbound call; it is rejected', { error, leg_id: leg.id });
  }
  await recordLegProgress({ store, wakeRelay: () => deps.wakeRelay() }, leg.id, { status: 'canceled', at: deps.now().toISOString() });
  return outcome;
}
