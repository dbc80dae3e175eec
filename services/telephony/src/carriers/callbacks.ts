// Carrier status callbacks, as the gateway received them: the signature is checked with the
// connection's own credentials before anything changes; then a delivery report moves a message
// forward, or a vetting verdict settles a pending A2P campaign.
import { invalidRequest } from '@voice/runtime/errors';
import type { HandleCarrierCallbackRequest } from '@voice/proto/voice/telephony/v1/telephony';
import type { DeliveryStatus } from './carrier.js';
import { verifiedWebhookCarrier } from './webhook-carrier.js';
import type { CampaignStore, ConnectionStore, DeliveryStore } from '../store/store.js';
import type { TelephonyDeps } from '../deps.js';
import { recordDelivery } from '../sms/delivery-reports.js';

// Maps, not object literals: a carrier's word such as "constructor" must not find Object.prototype.
/** Twilio-style MessageStatus values onto the platform's message states. */
const deliveryStatusOf = new Map<string, DeliveryStatus>([
  ['accepted', 'queued'],
  ['queued', 'queued'],
  ['sending', 'queued'],
  ['sent', 'sent'],
  ['delivered', 'delivered'],
  ['undelivered', 'failed'],
  ['failed', 'failed'],
]);

const campaignVerdictOf = new Map<string, 'approved' | 'rejected'>([
  ['approved', 'approved'],
  ['verified', 'approved'],
  ['rejected', 'rejected'],
  ['failed', 'rejected'],
]);

export function carrierCallbacks(deps: TelephonyDeps<DeliveryStore & ConnectionStore & CampaignStore>) {
  const { store } = deps;

  return {
    async handleCarrierCallback(request: HandleCarrierCallbackRequest) {
      const { connectionId } = await verifiedWebhookCarrier(deps, request.connection, { url: request.url, params: request.params, signature: request.signature });
      const params = request.params;
      const at = deps.now().toISOString();
      if (params.MessageSid && params.MessageStatus) {
        const status = deliveryStatusOf.get(params.MessageStatus.toLowerCase());
        if (!status) throw invalidRequest([{ field: 'MessageStatus', issue: `is not a known status: ${params.MessageStatus}` }]);
        const failureReason = status === 'failed' ? (params.ErrorMessage || `not delivered${params.ErrorCode ? ` (code ${params.ErrorCode})` : ''}`) : undefined;
        // A report for a message not recorded yet is kept for its acceptance, and acknowledged like any.
        await recordDelivery(deps, { carrierConnectionId: connectionId, carrierMessageId: params.MessageSid, update: { status, failureReason, at } });
        return {};
      }
      if (params.CampaignId && params.CampaignStatus) {
        if (connectionId === null) throw invalidRequest([{ field: 'CampaignId', issue: "the platform's carrier vets no workspace campaigns" }]);
        const verdict = campaignVerdictOf.get(params.CampaignStatus.toLowerCase());
        if (!verdict) throw invalidRequest([{ field: 'CampaignStatus', issue: `is not a known verdict: ${params.CampaignStatus}` }]);
        await store.setCampaignStatus(connectionId, params.CampaignId, verdict, verdict === 'rejected' ? params.Reason || 'rejected by the carrier' : '', at);
        return {};
      }
      throw invalidRequest([{ field: 'body', issue: 'is neither a message status nor a campaign verdict' }]);
    },
  };
}
