// What telephony asks of the calls service: to take an inbound call on a number assigned to an
// assistant (CallIntakeService), and to keep a recording the carrier made of a call, handed over as
// the call's runtime would (CallSessionService.UploadRecording with the call's session).
import { createClient, type Transport } from '@connectrpc/connect';
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

/** UploadRecording takes chunks of at most 64 KiB. */
const chunkBytes = 64 * 1024;

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
    async function* messages() {
      for (let offset = 0; offset < Math.max(recording.bytes.length, 1); offset += chunkBytes) {
        const chunk = recording.bytes.subarray(offset, offset + chunkBytes);
        yield offset === 0 ? { session, contentType: recording.contentType, chunk } : { chunk };
      }
    }
    await this.sessions.uploadRecording(messages(), this.options(''));
  }

  private options(workspaceId: string) {
    return { headers: callHeaders(this.signer, serviceCaller('telephony', workspaceId, '')) };
  }
}
