// The calls service as the campaigns service asks it, on behalf of the campaign's workspace: it places a
// campaign's calls (CreateCall: the call's own checks apply, the assistant, the number, the wallet's hold)
// and counts them (SummarizeCampaignCalls: calls are the one record of what was placed, answered and
// charged, so a campaign's progress asks them instead of keeping a copy that could drift).
import { Code, ConnectError, createClient, type Client, type Transport } from '@connectrpc/connect';
import { create, type JsonObject } from '@bufbuild/protobuf';
import { callHeaders, serviceCaller, type CallerSigner, type WorkspaceCaller } from '@voice/runtime/caller';
import { errorDetailOf } from '@voice/runtime/errors';
import { CallsService, CampaignCallSummarySchema, type CampaignCallSummary } from '@voice/proto/voice/calls/v1/calls';

export interface CallOrder {
  assistantId: string;
  /** E.164. */
  from: string;
  to: string;
  variables: JsonObject;
  metadata: JsonObject;
  /** The campaign the call is for: the calls service keeps it with the call and counts the campaign's calls by it. */
  campaignId: string;
  /** The same key is the same call: a job handled twice places one. */
  idempotencyKey: string;
}

/**
 * A call placed; refused for a reason no later attempt of this job would change; or unfunded: the
 * wallet cannot hold the call's first minute, which funds added later do change.
 */
export type Placement = { kind: 'placed'; callId: string } | { kind: 'refused'; reason: string } | { kind: 'unfunded'; reason: string };

/** What the dialers need: a campaign's call placed. */
export interface CallPlacer {
  place(caller: WorkspaceCaller, order: CallOrder): Promise<Placement>;
}

/** What GetCampaign's progress needs: a campaign's calls counted. */
export interface CampaignCalls {
  summarize(caller: WorkspaceCaller, campaignId: string): Promise<CampaignCallSummary>;
}

/** Refusals of the request itself (not of the moment): the assistant or number is gone, the wallet is empty, the number is refused. */
const refusedCodes = new Set([Code.InvalidArgument, Code.NotFound, Code.FailedPrecondition, Code.PermissionDenied, Code.ResourceExhausted, Code.AlreadyExists]);

export class ConnectCampaignCalls implements CallPlacer, CampaignCalls {
  private readonly calls: Client<typeof CallsService>;

  constructor(
    transport: Transport,
    private readonly signer: CallerSigner,
  ) {
    this.calls = createClient(CallsService, transport);
  }

  /** Internal calls in the caller's workspace, under the caller's request id. */
  private options(caller: WorkspaceCaller) {
    return { headers: callHeaders(this.signer, serviceCaller('campaigns', caller.workspaceId, caller.requestId)) };
  }

  async place(caller: WorkspaceCaller, order: CallOrder): Promise<Placement> {
    try {
      const { call } = await this.calls.createCall(
        { assistantId: order.assistantId, from: order.from, to: order.to, variables: order.variables, metadata: order.metadata, campaignId: order.campaignId, idempotencyKey: order.idempotencyKey },
        this.options(caller),
      );
      return { kind: 'placed', callId: call!.id };
    } catch (error) {
      const refusal = ConnectError.from(error);
      if (errorDetailOf(refusal).condition === 'insufficient_funds') return { kind: 'unfunded', reason: refusal.rawMessage };
      if (refusedCodes.has(refusal.code)) return { kind: 'refused', reason: refusal.rawMessage };
      throw error;
    }
  }

  async summarize(caller: WorkspaceCaller, campaignId: string): Promise<CampaignCallSummary> {
    const { summary } = await this.calls.summarizeCampaignCalls({ campaignId }, this.options(caller));
    return summary ?? create(CampaignCallSummarySchema);
  }
}
