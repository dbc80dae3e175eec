// Phone numbers: marketplace search and purchase through the platform's carrier (its first month
// held at billing before the carrier is asked, captured with the number's record), import from a
// workspace's own carrier account, settings, release.
import { create } from '@bufbuild/protobuf';
import { formatCredits } from '@voice/runtime/amounts';
import type { Caller, WorkspaceCaller } from '@voice/runtime/caller';
import { notFound, serviceError } from '@voice/runtime/errors';
import type { NewOutboxEvent } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { unknownAssistantIssue } from '@voice/runtime/internal';
import { normalisePage } from '@voice/runtime/validation';
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
import { anniversary } from '../domain/anniversaries.js';
import { BillingUnreachable } from '../billing/holds.js';
import { numberFeeCaptureEvent, numberFeeDescription, numberFeeHoldId, numberFeeHoldSeconds, numberFeeKind } from './fees.js';
import { NumberNotAvailable, type NumberCapabilities } from '../carriers/carrier.js';
import { buyNumberBodySchema, importNumberBodySchema, searchNumbersQuerySchema, updateNumberBodySchema, parseE164 } from '@voice/contracts/telephony';
import { presentNumber } from '../presenter.js';
import type { CampaignStore, ConnectionStore, NumberChanges, NumberRecord, NumberSource, NumberStore } from '../store/store.js';
import { withCarrier } from '../carriers/carrier-errors.js';
import type { TelephonyDeps } from '../deps.js';
import { loadOr404, parseInput } from '../input.js';

const numberTaken = (number: string) => serviceError('conflict', `${number} already belongs to a workspace on this platform`);

/** Search results beyond this are never useful to a person choosing a number. */
const maxSearchResults = 200;

export function phoneNumbers(deps: TelephonyDeps<NumberStore & ConnectionStore & CampaignStore>) {
  const { store } = deps;
  const present = (number: NumberRecord) => presentNumber(number, deps.numberTerms);

  async function insert(
    workspaceId: string,
    source: NumberSource,
    e164: { number: string; country: string },
    capabilities: NumberCapabilities,
    carrierConnectionId: string | null,
    purchase?: { id: string; boughtAt: Date; capture?: NewOutboxEvent },
  ): Promise<NumberRecord> {
    const at = (purchase?.boughtAt ?? deps.now()).toISOString();
    const record: NumberRecord = {
      id: purchase?.id ?? newId(),
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
      sipTrunkId: null,
      renewsAt: purchase ? anniversary(purchase.boughtAt, 1).toISOString() : null,
      pastDueSince: null,
      createdAt: at,
      updatedAt: at,
    };
    const outcome = await store.insertNumber(record, purchase?.capture);
    if (outcome.kind === 'number_taken') throw numberTaken(e164.number);
    if (purchase?.capture) deps.wakeRelay();
    return outcome.number;
  }

  /** Holds the first month's fee of a number about to be bought: 409 when the wallet cannot pay it, 503 when billing cannot be asked. */
  async function holdFirstMonth(caller: Caller & { workspaceId: string }, id: string, number: string): Promise<void> {
    const creditUnits = deps.pricing.numberMonthlyUnits;
    let answer;
    try {
      answer = await deps.holds.authorize({
        workspaceId: caller.workspaceId,
        holdId: numberFeeHoldId(id, 0),
        creditUnits,
        kind: numberFeeKind,
        reference: id,
        description: numberFeeDescription({ number }, 0),
        expiresInSeconds: numberFeeHoldSeconds,
        requestId: caller.requestId,
      });
    } catch (error) {
      if (error instanceof BillingUnreachable) {
        throw serviceError('telephony_unavailable', 'the platform could not hold the first month of the number; nothing was bought or charged, retry shortly', { cause: error });
      }
      throw error;
    }
    if (answer.kind === 'refused') {
      throw serviceError(
        'conflict',
        `not enough credits: the first month of the number costs ${formatCredits(creditUnits)} credits and ${formatCredits(Math.max(0, answer.availableUnits))} are available`,
      );
    }
  }

  return {
    async searchAvailableNumbers(request: SearchAvailableNumbersRequest) {
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

    async buyNumber(request: BuyNumberRequest, caller: WorkspaceCaller) {
      const input = parseInput(buyNumberBodySchema, { number: request.number });
      const e164 = parseE164(input.number)!;
      if ((await store.heldNumbers([e164.number])).size > 0) throw numberTaken(e164.number);
      const id = newId();
      const boughtAt = deps.now();
      const charged = deps.pricing.numberMonthlyUnits > 0;
      if (charged) await holdFirstMonth(caller, id, e164.number);
      // Whatever stops the purchase after the hold gives the first month back.
      const giveBack = () => (charged ? deps.holds.release({ workspaceId: caller.workspaceId, holdId: numberFeeHoldId(id, 0), requestId: caller.requestId }) : Promise.resolve());
      try {
        let capabilities: NumberCapabilities;
        try {
          capabilities = await withCarrier(() => deps.carriers.platform().purchaseNumber(e164.number, deps.carriers.numberVoiceRoute(null)));
        } catch (error) {
          if (error instanceof NumberNotAvailable) throw serviceError('conflict', `${e164.number} is not available for purchase; search again`);
          throw error;
        }
        const capture = charged
          ? numberFeeCaptureEvent({ id, workspaceId: caller.workspaceId, number: e164.number }, 0, deps.pricing.numberMonthlyUnits, boughtAt.toISOString())
          : undefined;
        return { number: present(await insert(caller.workspaceId, 'marketplace', e164, capabilities, null, { id, boughtAt, capture })) };
      } catch (error) {
        await giveBack();
        throw error;
      }
    },

    async importNumber(request: ImportNumberRequest, caller: WorkspaceCaller) {
      const input = parseInput(importNumberBodySchema, { number: request.number, carrier_connection_id: request.carrierConnectionId });
      const e164 = parseE164(input.number)!;
      const connection = await loadOr404('carrier connection', input.carrier_connection_id, (id) => store.getConnection(caller.workspaceId, id));
      if ((await store.heldNumbers([e164.number])).size > 0) throw numberTaken(e164.number);
      const capabilities = await withCarrier(() => deps.carriers.forConnection(connection).importNumber(e164.number, deps.carriers.numberVoiceRoute(connection.id)));
      if (!capabilities) {
        throw serviceError('telephony_configuration_error', `the carrier account of this connection does not hold ${e164.number}`);
      }
      return { number: present(await insert(caller.workspaceId, 'imported', e164, capabilities, connection.id)) };
    },

    async listNumbers(request: ListNumbersRequest, caller: WorkspaceCaller) {
      const { numbers, total } = await store.listNumbers(caller.workspaceId, normalisePage(request.page), request.assistantId);
      return { numbers: numbers.map(present), total };
    },

    async getNumber(request: GetNumberRequest, caller: WorkspaceCaller) {
      return { number: present(await loadOr404('phone number', request.id, (id) => store.getNumber(caller.workspaceId, id))) };
    },

    async updateNumber(request: UpdateNumberRequest, caller: WorkspaceCaller) {
      const input = parseInput(updateNumberBodySchema, {
        sms_outbound_enabled: request.smsOutboundEnabled,
        name: request.name,
        assistant_id: request.clearAssistantId ? null : request.assistantId,
        a2p_campaign_id: request.clearA2pCampaignId ? null : request.a2pCampaignId,
      });
      const number = await loadOr404('phone number', request.id, (id) => store.getNumber(caller.workspaceId, id));
      if (input.assistant_id && deps.assistants && !(await deps.assistants.exists(caller, input.assistant_id))) {
        throw serviceError('invalid_request', `assistant_id: ${unknownAssistantIssue}`, { fields: [{ field: 'assistant_id', issue: unknownAssistantIssue }] });
      }
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
      return { number: present(updated) };
    },

    async releaseNumber(request: ReleaseNumberRequest, caller: WorkspaceCaller) {
      const number = await loadOr404('phone number', request.id, (id) => store.getNumber(caller.workspaceId, id));
      // A bought number goes back to the platform's carrier first: if the carrier cannot take it
      // now, the workspace keeps it rather than the platform paying for a number nobody holds.
      if (number.source === 'marketplace') await withCarrier(() => deps.carriers.platform().releaseNumber(number.number));
      if (!(await store.deleteNumber(caller.workspaceId, number.id))) throw notFound('phone number');
      return {};
    },
  };
}
