// What telephony asks of the calls service: to take an inbound call on a number assigned to an
// assistant (CallIntakeService), and to keep a recording the carrier made of a call, handed over as
// the call's runtime would (CallSessionService.UploadRecording with the call's session).
import { createClient, type Transport } from '@connectrpc/connect';
import { recordingUploadMessages } from '@voice/runtime/call-recordings';
import { callHeaders, serviceCaller, type CallerSigner } from '@voice/runtime/caller';
import { CallIntakeService, type AcceptInboundCallRequest, type AcceptInboundCallResponse } from '@voice/proto/voice/calls/v1/call_intake';
import { CallSessionService } from '@voice/proto/voice/calls/v1/call_sessions';
import type { CarrierRecording } from '../carriers/carrier.js';

export interface CallSession {
  callId: string;
  sessionToken: string;
}

export interface CallsPeer {
  acceptInboundCall(request: Omit<AcceptInboundCallRequest, '$typeName' | '$unknown'>): Promise<AcceptInboundCallResponse>;
  uploadRecording(session: CallSession, recording: CarrierRecording): Promise<void>;
}

export class ConnectCallsPeer implements CallsPeer {
  private readonly intake;
  private readonly sessions;

  constructor(
    transport: Transport,
    private readonly signer: CallerSigner,
  ) {
    this.intake = createClient(CallIntakeService, transport);
    this.sessions = createClient(CallSessionService, transport);
  }

  acceptInboundCall(request: Omit<AcceptInboundCallRequest, '$typeName' | '$unknown'>): Promise<AcceptInboundCallResponse> {
    return this.intake.acceptInboundCall(request, this.options(request.workspaceId));
  }

  async uploadRecording(session: CallSession, recording: CarrierRecording): Promise<void> {
    await this.sessions.uploadRecording(recordingUploadMessages(session, recording.contentType, recording.bytes), this.options(''));
  }

  private options(workspaceId: string) {
    return { headers: callHeaders(this.signer, serviceCaller('telephony', workspaceId, '')) };
  }
}
