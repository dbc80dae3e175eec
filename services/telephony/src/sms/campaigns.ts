// A2P 10DLC campaigns: submitted to the carrier of a connection, which approves or rejects
// them at once (the sandbox) or later through a signed status callback.
import type { WorkspaceCaller } from '@voice/runtime/caller';
import { newId } from '@voice/runtime/ids';
import { normalisePage } from '@voice/runtime/validation';
import type { CreateA2pCampaignRequest, GetA2pCampaignRequest, ListA2pCampaignsRequest } from '@voice/proto/voice/telephony/v1/telephony';
import { createCampaignBodySchema } from '@voice/contracts/telephony';
import { presentCampaign } from '../presenter.js';
import { withCarrier } from '../carriers/carrier-errors.js';
import type { CampaignStore, ConnectionStore } from '../store/store.js';
import type { TelephonyDeps } from '../deps.js';
import { loadOr404, parseInput } from '../input.js';

export function a2pCampaigns(deps: TelephonyDeps<CampaignStore & ConnectionStore>) {
  const { store } = deps;
  return {
    async createA2pCampaign(request: CreateA2pCampaignRequest, caller: WorkspaceCaller) {
      const input = parseInput(createCampaignBodySchema, {
        name: request.name,
        carrier_connection_id: request.carrierConnectionId,
        use_case: request.useCase,
        description: request.description,
        sample_messages: request.sampleMessages,
      });
      const connection = await loadOr404('carrier connection', input.carrier_connection_id, (id) => store.getConnection(caller.workspaceId, id));
      const id = newId();
      const vetting = await withCarrier(() =>
        deps.carriers.forConnection(connection).submitA2pCampaign({
          id,
          name: input.name,
          useCase: input.use_case,
          description: input.description,
          sampleMessages: input.sample_messages,
        }),
      );
      const at = deps.now().toISOString();
      const campaign = await store.insertCampaign({
        id,
        workspaceId: caller.workspaceId,
        name: input.name,
        carrierConnectionId: connection.id,
        useCase: input.use_case,
        description: input.description,
        sampleMessages: input.sample_messages,
        status: vetting.status,
        rejectionReason: vetting.status === 'rejected' ? vetting.reason : '',
        createdAt: at,
        updatedAt: at,
      });
      return { campaign: presentCampaign(campaign) };
    },

    async listA2pCampaigns(request: ListA2pCampaignsRequest, caller: WorkspaceCaller) {
      const { campaigns, total } = await store.listCampaigns(caller.workspaceId, normalisePage(request.page));
      return { campaigns: campaigns.map(presentCampaign), total };
    },

    async getA2pCampaign(request: GetA2pCampaignRequest, caller: WorkspaceCaller) {
      return { campaign: presentCampaign(await loadOr404('A2P campaign', request.id, (id) => store.getCampaign(caller.workspaceId, id))) };
    },
  };
}
