// A campaign's calls as the calls service counts them: calls are the one record of what was placed,
// answered and charged, so a campaign's progress asks them (SummarizeCampaignCalls) instead of
// keeping a copy that could drift.
import { createClient, type Client, type Transport } from '@connectrpc/connect';
import { create } from '@bufbuild/protobuf';
import { callHeaders, serviceCaller, type CallerSigner, type WorkspaceCaller } from '@voice/runtime/caller';
import { CallsService, CampaignCallSummarySchema, type CampaignCallSummary } from '@voice/proto/voice/calls/v1/calls';

export interface CampaignCalls {
  summarize(caller: WorkspaceCaller, campaignId: string): Promise<CampaignCallSummary>;
}

export class ConnectCampaignCalls implements CampaignCalls {
  private readonly calls: Client<typeof CallsService>;

  constructor(
    transport: Transport,
    private readonly signer: CallerSigner,
  ) {
    this.calls = createClient(CallsService, transport);
  }

  async summarize(caller: WorkspaceCaller, campaignId: string): Promise<CampaignCallSummary> {
    const headers = callHeaders(this.signer, serviceCaller('campaigns', caller.workspaceId, caller.requestId));
    const { summary } = await this.calls.summarizeCampaignCalls({ campaignId }, { headers });
    return summary ?? create(CampaignCallSummarySchema);
  }
}
