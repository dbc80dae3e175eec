// The calls service as telephony sees it, for tier-2 tests: takes (or refuses) inbound calls and
// keeps the recordings handed to it, recording every request.
import { create } from '@bufbuild/protobuf';
import { newId } from '@voice/runtime/ids';
import { AcceptInboundCallResponseSchema, type AcceptInboundCallRequest } from '@voice/proto/voice/calls/v1/call_intake';
import type { CallSession, CallsPeer } from '../src/call-legs/calls-peer.js';
import type { CarrierRecording } from '../src/carriers/carrier.js';

export class CallsDouble implements CallsPeer {
  readonly offered: AcceptInboundCallRequest[] = [];
  readonly recordings: { session: CallSession; recording: CarrierRecording }[] = [];
  refuse = false;

  async acceptInboundCall(request: Omit<AcceptInboundCallRequest, '$typeName' | '$unknown'>) {
    this.offered.push(request as AcceptInboundCallRequest);
    if (this.refuse) return create(AcceptInboundCallResponseSchema, { refusal: 'no funds' });
    const callId = newId();
    return create(AcceptInboundCallResponseSchema, { callId, mediaParameters: { call_id: callId, session_token: `st_${callId}` } });
  }

  async uploadRecording(session: CallSession, recording: CarrierRecording) {
    this.recordings.push({ session, recording });
  }
}
