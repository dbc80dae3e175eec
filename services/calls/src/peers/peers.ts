// The services a call is checked against and placed through, asked as the calls service on behalf of
// the caller's workspace: assistants (the assistant a call runs, held to today's plan), telephony
// (the calling number and the destination, then the carrier leg), identity (an inbound call's workspace
// and its plan).
import type { JsonObject } from '@bufbuild/protobuf';
import type { Client } from '@connectrpc/connect';
import { callHeaders, serviceCaller, type CallerSigner, type WorkspaceCaller } from '@voice/runtime/caller';
import type { AssistantsService } from '@voice/proto/voice/assistants/v1/assistants';
import type { CallLegService, PlaceCallLegRequest } from '@voice/proto/voice/telephony/v1/call_legs';
import type { CallRouteService } from '@voice/proto/voice/telephony/v1/call_routes';
import type { IdentityService } from '@voice/proto/voice/identity/v1/identity';
import { Code, ConnectError } from '@connectrpc/connect';

export interface CallAssistant {
  id: string;
  /** The version the call runs. */
  version: number;
  config: JsonObject;
}

export interface CallPeers {
  /** The assistant as a call runs it now; NotFound, or forbidden when the plan no longer includes its model. */
  callAssistant(caller: WorkspaceCaller, id: string, plan: string): Promise<CallAssistant>;
  /** The workspace number `from` names, empty for a verified caller ID; NotFound, telephony_configuration_error or destination_forbidden otherwise. */
  checkRoute(caller: WorkspaceCaller, from: string, to: string): Promise<{ numberId: string }>;
  placeLeg(caller: WorkspaceCaller, request: Omit<PlaceCallLegRequest, '$typeName' | 'workspaceId'>): Promise<{ legId: string }>;
  endLeg(caller: WorkspaceCaller, callId: string): Promise<void>;
  /** The workspace's plan, or undefined when it does not exist or is suspended (it takes no calls). */
  activePlan(caller: WorkspaceCaller): Promise<string | undefined>;
}

export class ConnectCallPeers implements CallPeers {
  constructor(
    private readonly clients: {
      assistants: Client<typeof AssistantsService>;
      routes: Client<typeof CallRouteService>;
      legs: Client<typeof CallLegService>;
      identity: Client<typeof IdentityService>;
    },
    private readonly signer: CallerSigner,
  ) {}

  /** Internal calls in the caller's workspace, under the caller's request id. */
  private options(caller: WorkspaceCaller) {
    return { headers: callHeaders(this.signer, serviceCaller('calls', caller.workspaceId, caller.requestId)) };
  }

  async callAssistant(caller: WorkspaceCaller, id: string, plan: string): Promise<CallAssistant> {
    const { assistant } = await this.clients.assistants.getCallAssistant({ id, workspacePlan: plan }, this.options(caller));
    return { id: assistant!.id, version: assistant!.revision, config: assistant!.config ?? {} };
  }

  async checkRoute(caller: WorkspaceCaller, from: string, to: string): Promise<{ numberId: string }> {
    return this.clients.routes.checkCallRoute({ from, to }, this.options(caller));
  }

  async placeLeg(caller: WorkspaceCaller, request: Omit<PlaceCallLegRequest, '$typeName' | 'workspaceId'>): Promise<{ legId: string }> {
    return this.clients.legs.placeCallLeg({ ...request, workspaceId: caller.workspaceId }, this.options(caller));
  }

  async endLeg(caller: WorkspaceCaller, callId: string): Promise<void> {
    await this.clients.legs.endCallLeg({ callId, workspaceId: caller.workspaceId }, this.options(caller));
  }

  async activePlan(caller: WorkspaceCaller): Promise<string | undefined> {
    try {
      const { workspace } = await this.clients.identity.getWorkspace({ id: caller.workspaceId }, this.options(caller));
      return workspace?.status === 'active' ? workspace.plan : undefined;
    } catch (error) {
      if (ConnectError.from(error).code === Code.NotFound) return undefined;
      throw error;
    }
  }
}
