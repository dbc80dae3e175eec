// Whether an assistant exists in a workspace, asked of the assistants service: the check every
// service makes before it stores a reference to an assistant (a number's assistant_id, a builtin
// tool's assistant_id), so no reference names another workspace's assistant or none at all.
import { Code, ConnectError, createClient, type Client, type Transport } from '@connectrpc/connect';
import { AssistantsService } from '@voice/proto/voice/assistants/v1/assistants';
import { callHeaders, serviceCaller, type Caller, type CallerSigner } from '../caller.js';

export interface AssistantLookup {
  /** True when `id` names an assistant of the caller's workspace; a failure of the assistants service is thrown. */
  exists(caller: Caller, id: string): Promise<boolean>;
}

export class AssistantDirectory implements AssistantLookup {
  private readonly client: Client<typeof AssistantsService>;

  /** `service` names the asking service in the assistants service's logs. */
  constructor(
    transport: Transport,
    private readonly signer: CallerSigner,
    private readonly service: string,
  ) {
    this.client = createClient(AssistantsService, transport);
  }

  async exists(caller: Caller, id: string): Promise<boolean> {
    const headers = callHeaders(this.signer, serviceCaller(this.service, caller.workspaceId, caller.requestId));
    try {
      await this.client.getAssistant({ id }, { headers });
      return true;
    } catch (error) {
      if (ConnectError.from(error).code === Code.NotFound) return false;
      throw error;
    }
  }
}

/** The field issue of a reference to an assistant the workspace does not have. */
export const unknownAssistantIssue = 'is not an assistant of this workspace';
