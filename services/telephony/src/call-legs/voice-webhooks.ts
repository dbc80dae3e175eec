// A Twilio-compatible carrier's voice webhooks, once their signature is verified: an answered
// outbound leg gets TwiML connecting its media to the voice runtime; status callbacks move legs
// (relayed as CallLegChanged); a call to a workspace number assigned to an assistant becomes a call
// of the calls service, or is rejected; a finished recording is fetched from the carrier (through
// the egress guard) and handed to the calls service with the call's session.
import { invalidRequest, notFound } from '@voice/runtime/errors';
import { isUuid } from '@voice/runtime/ids';
import { VoiceWebhookKind, type HandleVoiceWebhookRequest } from '@voice/proto/voice/telephony/v1/carrier_voice';
import { parseE164 } from '@voice/contracts/telephony';
import { hasEnded, type LegChange } from '../domain/call-legs.js';
import { withCarrier } from '../carriers/carrier-errors.js';
import { verifiedWebhookCarrier, type WebhookCarrier } from '../carriers/webhook-carrier.js';
import type { CallLegRecord, CallLegStore, ConnectionStore, NumberStore } from '../store/store.js';
import type { TelephonyDeps } from '../deps.js';
import { offerInboundCall } from './inbound-offer.js';
import { recordLegProgress } from './leg-events.js';
import { legStatusOfCallStatus } from './twilio-call-status.js';
import { connectStreamTwiml, hangupTwiml, rejectTwiml } from './twiml.js';

/** Twilio's SIDs: two letters and 32 hexadecimal digits. */
const carrierSid = /^[A-Z]{2}[0-9a-fA-F]{32}$/;

export function voiceWebhooks(deps: TelephonyDeps<CallLegStore & NumberStore & ConnectionStore>) {
  const { store } = deps;
  const now = () => deps.now().toISOString();
  const progress = (legId: string, change: LegChange) => recordLegProgress({ store, wakeRelay: () => deps.wakeRelay() }, legId, change);
  const parametersOf = (leg: CallLegRecord) => JSON.parse(deps.box.open(leg.sealedMediaParameters)) as Record<string, string>;

  /** The leg the webhook's URL names, carried by the carrier that signed it. */
  async function legOf(carrier: WebhookCarrier, legId: string): Promise<CallLegRecord> {
    const leg = isUuid(legId) ? await store.getLeg(legId) : undefined;
    if (!leg || leg.carrierConnectionId !== carrier.connectionId) throw notFound('call leg');
    return leg;
  }

  function callSidOf(params: Record<string, string>): string {
    const callSid = params.CallSid ?? '';
    if (!carrierSid.test(callSid)) throw invalidRequest([{ field: 'CallSid', issue: "must be the carrier's id of a call" }]);
    return callSid;
  }

  async function instructions(carrier: WebhookCarrier, request: HandleVoiceWebhookRequest): Promise<string> {
    const leg = await legOf(carrier, request.legId);
    const callSid = callSidOf(request.params);
    if (leg.carrierCallId === null) await store.recordCarrierCallId(leg.id, callSid, now());
    else if (leg.carrierCallId !== callSid) throw invalidRequest([{ field: 'CallSid', issue: 'is not the call of this leg' }]);
    // Ended meanwhile (the platform hung up before the answer): nobody is there to talk to.
    if (hasEnded(leg) || leg.callId === null) return hangupTwiml();
    return connectStreamTwiml(deps.mediaUrl, parametersOf(leg));
  }

  async function status(carrier: WebhookCarrier, request: HandleVoiceWebhookRequest): Promise<string> {
    const params = request.params;
    const callSid = callSidOf(params);
    const leg = request.legId === '' ? await store.getLegByCarrierCallId(carrier.connectionId, callSid) : await legOf(carrier, request.legId);
    // A number's report on a call no leg was made for (rejected, or not ours): acknowledged, since a
    // refusal would only have the carrier send it again.
    if (!leg) return '';
    if (leg.carrierCallId !== null && leg.carrierCallId !== callSid) throw invalidRequest([{ field: 'CallSid', issue: 'is not the call of this leg' }]);
    const moved = legStatusOfCallStatus(params.CallStatus ?? '');
    if (moved === undefined) throw invalidRequest([{ field: 'CallStatus', issue: `is not a known call status: ${params.CallStatus ?? ''}` }]);
    if (moved === 'unchanged') return '';
    const duration = /^\d{1,6}$/.test(params.CallDuration ?? '') ? Number(params.CallDuration) : 0;
    const failureReason = moved === 'failed' ? `the carrier could not connect the call${/^\d{1,6}$/.test(params.ErrorCode ?? '') ? ` (error ${params.ErrorCode})` : ''}` : undefined;
    await progress(leg.id, { status: moved, at: now(), durationSeconds: duration, failureReason });
    return '';
  }

  async function inbound(carrier: WebhookCarrier, request: HandleVoiceWebhookRequest): Promise<string> {
    const params = request.params;
    const callSid = callSidOf(params);
    // The carrier asks again for a call it already offered: the same answer.
    const offered = await store.getLegByCarrierCallId(carrier.connectionId, callSid);
    if (offered) return offered.callId !== null && !hasEnded(offered) ? connectStreamTwiml(deps.mediaUrl, parametersOf(offered)) : rejectTwiml();
    const to = parseE164(params.To ?? '')?.number;
    const from = parseE164(params.From ?? '')?.number;
    const number = to === undefined ? undefined : await store.numberHeldAs(to);
    // Only a voice number of this carrier, given to an assistant, takes calls from a caller who can be called back.
    if (!number || number.carrierConnectionId !== carrier.connectionId || !number.voiceCapable || !number.assistantId || !from) return rejectTwiml();
    const offer = await offerInboundCall(deps, { number: { ...number, assistantId: number.assistantId }, carrierConnectionId: carrier.connectionId, carrierCallId: callSid, from });
    return offer.kind === 'taken' ? connectStreamTwiml(deps.mediaUrl, offer.mediaParameters) : rejectTwiml();
  }

  async function recording(carrier: WebhookCarrier, request: HandleVoiceWebhookRequest): Promise<string> {
    const leg = await legOf(carrier, request.legId);
    const params = request.params;
    // Only a finished recording can be fetched (absent and failed ones have nothing to fetch).
    if ((params.RecordingStatus ?? 'completed') !== 'completed') return '';
    const recordingSid = params.RecordingSid ?? '';
    if (!carrierSid.test(recordingSid)) throw invalidRequest([{ field: 'RecordingSid', issue: "must be the carrier's id of a recording" }]);
    const session = leg.callId === null ? undefined : parametersOf(leg);
    if (!deps.calls || !session?.call_id || !session.session_token) return '';
    const file = await withCarrier(() => carrier.adapter.fetchRecording(recordingSid));
    await deps.calls.uploadRecording({ callId: session.call_id, sessionToken: session.session_token }, file);
    return '';
  }

  return {
    async handleVoiceWebhook(request: HandleVoiceWebhookRequest) {
      const carrier = await verifiedWebhookCarrier(deps, request.connection, { url: request.url, params: request.params, signature: request.signature });
      switch (request.kind) {
        case VoiceWebhookKind.INSTRUCTIONS:
          return { twiml: await instructions(carrier, request) };
        case VoiceWebhookKind.STATUS:
          return { twiml: await status(carrier, request) };
        case VoiceWebhookKind.INBOUND:
          return { twiml: await inbound(carrier, request) };
        case VoiceWebhookKind.RECORDING:
          return { twiml: await recording(carrier, request) };
        default:
          throw invalidRequest([{ field: 'kind', issue: 'must name the kind of voice webhook' }]);
      }
    },
  };
}
