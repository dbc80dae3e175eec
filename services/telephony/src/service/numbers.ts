// Phone numbers: marketplace search and purchase through the platform's carrier, import from a
// workspace's own carrier account, settings, release.
import type { HandlerContext } from '@connectrpc/connect';
import { create } from '@bufbuild/protobuf';
import { newId, normalisePage, notFound, serviceError, workspaceCallerOf } from '@voice/runtime';
import {
  AvailableNumberSchema,
  type BuyNumberRequest,
  type GetNumberRequest,
  type ImportNumberRequest,
  type ListNumbersRequest,
  type ReleaseNumberRequest,
  type SearchAvailableNumbersRequest,
  type UpdateNumberRequest,
} from '@voice/proto/voice/telephony/v1/telephony';
import { NumberNotAvailable, type NumberCapabilities } from '../carriers/carrier.js';
import { buyNumberBodySchema, importNumberBodySchema, searchNumbersQuerySchema, updateNumberBodySchema } from '../domain/schema.js';
import { parseE164 } from '../numbers/phone.js';
import { presentNumber } from '../presenter.js';
import type { NumberChanges, NumberRecord, NumberSource } from '../store/store.js';
import { withCarrier } from './carrier-errors.js';
import type { TelephonyDeps } from './deps.js';
import { loadOr404, parseInput } from './input.js';

const numberTaken = (number: string) => serviceError('conflict', `${number} already belongs to a workspace on this platform`);

/** Search results beyond this are never useful to a person choosing a number. */
const maxSearchResults = 200;

export function numberHandlers(deps: TelephonyDeps) {
  const { store } = deps;

  async function insert(
    workspaceId: string,
    source: NumberSource,
    e164: { number: string; country: string },
    capabilities: NumberCapabilities,
    carrierConnectionId: string | null,
  ): Promise<NumberRecord> {
    const at = deps.now().toISOString();
    const outcome = await store.insertNumber({
      id: newId(),
      workspaceId,
      number: e164.number,
      country: e164.country,
      source,
      smsCapable: capabilities.smsCapable,
      voiceCapable: capabilities.voiceCapable,
      smsOutboundEnabled: false,
      carrierConnectionId,
      a2pCampaignId: null,
      name: '',
      assistantId: null,
      createdAt: at,
      updatedAt: at,
    });
    if (outcome.kind === 'number_taken') throw numberTaken(e164.number);
    return outcome.number;
  }

  return {
    async searchAvailableNumbers(request: SearchAvailableNumbersRequest, context: HandlerContext) {
      workspaceCallerOf(context);
      const query = parseInput(searchNumbersQuerySchema, { country: request.country, area_code: request.areaCode });
      const limit = Math.min(Math.max(request.limit || 20, 1), maxSearchResults);
      const offered = await withCarrier(() =>
        deps.carriers.platform().searchAvailable({ country: query.country, areaCode: query.area_code, limit: Math.min(limit * 2, maxSearchResults) }),
      );
      const held = await store.heldNumbers(offered.map((offer) => offer.number));
      const numbers = offered
        .filter((offer) => !held.has(offer.number))
        .slice(0, limit)
        .map((offer) => create(AvailableNumberSchema, { ...offer, monthlyCreditUnits: BigInt(deps.pricing.numberMonthlyUnits) }));
      return { numbers };
    },

    async buyNumber(request: BuyNumberRequest, context: HandlerContext) {
      const caller = workspaceCallerOf(context);
      const input = parseInput(buyNumberBodySchema, { number: request.number });
      const e164 = parseE164(input.number)!;
      if ((await store.heldNumbers([e164.number])).size > 0) throw numberTaken(e164.number);
      let capabilities: NumberCapabilities;
      try {
        capabilities = await withCarrier(() => deps.carriers.platform().purchaseNumber(e164.number));
      } catch (error) {
        if (error instanceof NumberNotAvailable) throw serviceError('conflict', `${e164.number} is not available for purchase; search again`);
        throw error;
      }
      return { number: presentNumber(await insert(caller.workspaceId, 'marketplace', e164, capabilities, null)) };
    },

    async importNumber(request: ImportNumberRequest, context: HandlerContext) {
      const caller = workspaceCallerOf(context);
      const input = parseInput(importNumberBodySchema, { number: request.number, carrier_connection_id: request.carrierConnectionId });
      const e164 = parseE164(input.number)!;
      const connection = await loadOr404('carrier connection', input.carrier_connection_id, (id) => store.getConnection(caller.workspaceId, id));
      if ((await store.heldNumbers([e164.number])).size > 0) throw numberTaken(e164.number);
      const capabilities = await withCarrier(() => deps.carriers.forConnection(connection).lookupNumber(e164.number));
      if (!capabilities) {
        throw serviceError('telephony_configuration_error', `the carrier account of this connection does not hold ${e164.number}`);
      }
      return { number: presentNumber(await insert(caller.workspaceId, 'imported', e164, capabilities, connection.id)) };
    },

    async listNumbers(request: ListNumbersRequest, context: HandlerContext) {
      const caller = workspaceCallerOf(context);
      const { numbers, total } = await store.listNumbers(caller.workspaceId, normalisePage(request.page));
      return { numbers: numbers.map(presentNumber), total };
    },

    async getNumber(request: GetNumberRequest, context: HandlerContext) {
      const caller = workspaceCallerOf(context);
      return { number: presentNumber(await loadOr404('phone number', request.id, (id) => store.getNumber(caller.workspaceId, id))) };
    },

    async updateNumber(request: UpdateNumberRequest, context: HandlerContext) {
      const caller = workspaceCallerOf(context);
      const input = parseInput(updateNumberBodySchema, {
        sms_outbound_enabled: request.smsOutboundEnabled,
        name: request.name,
        assistant_id: request.clearAssistantId ? null : request.assistantId,
        a2p_campaign_id: request.clearA2pCampaignId ? null : request.a2pCampaignId,
      });
      const number = await loadOr404('phone number', request.id, (id) => store.getNumber(caller.workspaceId, id));
      if (input.a2p_campaign_id) {
        const campaign = await loadOr404('A2P campaign', input.a2p_campaign_id, (id) => store.getCampaign(caller.workspaceId, id));
        if (campaign.carrierConnectionId !== number.carrierConnectionId) {
          throw serviceError('invalid_request', 'a2p_campaign_id: the campaign is registered with another carrier connection than this number', {
            fields: [{ field: 'a2p_campaign_id', issue: "must be a campaign of the number's carrier connection" }],
          });
        }
      }
      const changes: NumberChanges = {
        smsOutboundEnabled: input.sms_outbound_enabled,
        name: input.name,
        assistantId: input.assistant_id,
        a2pCampaignId: input.a2p_campaign_id,
      };
      const updated = await store.updateNumber(caller.workspaceId, number.id, changes, deps.now().toISOString());
      if (!updated) throw notFound('phone number');
      return { number: presentNumber(updated) };
    },

    async releaseNumber(request: ReleaseNumberRequest, context: HandlerContext) {
      const caller = workspaceCallerOf(context);
      const number = await loadOr404('phone number', request.id, (id) => store.getNumber(caller.workspaceId, id));
      // A bought number goes back to the platform's carrier first: if the carrier cannot take it
      // now, the workspace keeps it rather than the platform paying for a number nobody holds.
      if (number.source === 'marketplace') await withCarrier(() => deps.carriers.platform().releaseNumber(number.number));
      if (!(await store.deleteNumber(caller.workspaceId, number.id))) throw notFound('phone number');
      return {};
    },
  };
}
