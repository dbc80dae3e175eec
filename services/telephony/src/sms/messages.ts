// POST /sms/send and the message reads. The preconditions run in API.md 6's order; the credits
// are the last of them: billing holds the price against the wallet's available balance (so
// concurrent sends, renewals and reclaims can never overspend it together), then the carrier is
// asked. A message the carrier took captures its hold through a usage event written in the same
// transaction that records the acceptance (so the debit lands exactly once, even if billing is
// away by then); a message it did not take releases the hold the same way.
import { formatCredits } from '@voice/runtime/amounts';
import type { Caller, WorkspaceCaller } from '@voice/runtime/caller';
import { invalidRequest, serviceError } from '@voice/runtime/errors';
import { idempotencyClaim } from '@voice/runtime/idempotency';
import { newId } from '@voice/runtime/ids';
import { toIso } from '@voice/runtime/time';
import { normalisePage } from '@voice/runtime/validation';
import type { GetMessageRequest, ListMessagesRequest, SendSmsRequest } from '@voice/proto/voice/telephony/v1/telephony';
import { messageStatuses, sendSmsBodySchema, isUsNumber, isUsTenDlc, parseE164, segmentSms } from '@voice/contracts/telephony';
import { presentMessage } from '../presenter.js';
import { smsPriceUnits } from '../domain/pricing.js';
import { BillingUnreachable, type HoldAnswer } from '../billing/holds.js';
import { smsCaptureEvent, smsDescription, smsHoldId, smsReleaseEvent, smsUsageKind } from '../billing/usage-events.js';
import { smsStatusChangedEvent } from './status-events.js';
import type { CampaignStore, ClaimOutcome, ConnectionStore, MessageRecord, MessageStatus, MessageStore, NumberRecord, NumberStore, SendStore, SuppressionStore } from '../store/store.js';
import type { CarrierRoute } from '../carriers/directory.js';
import { withCarrier } from '../carriers/carrier-errors.js';
import type { TelephonyDeps } from '../deps.js';
import { loadOr404, parseInput } from '../input.js';

const configurationError = (message: string) => serviceError('telephony_configuration_error', message);

export function smsMessages(deps: TelephonyDeps<SendStore & MessageStore & NumberStore & ConnectionStore & CampaignStore & SuppressionStore>) {
  const { store } = deps;

  /** The sender's carrier, or why this number may not send (409 telephony_configuration_error). */
  async function senderRoute(caller: Caller & { workspaceId: string }, number: NumberRecord, to: string): Promise<CarrierRoute> {
    if (!number.smsCapable) throw configurationError('the sending number is not SMS-capable');
    if (!number.smsOutboundEnabled) throw configurationError('outbound SMS is disabled for the sending number; enable sms_outbound_enabled first');
    const connection =
      number.source === 'imported' && number.carrierConnectionId ? await store.getConnection(caller.workspaceId, number.carrierConnectionId) : undefined;
    const route = deps.carriers.forNumber(number, connection);
    if (!route) throw configurationError('the imported number has no carrier connection');
    if (number.source === 'imported' && isUsTenDlc(number.number) && isUsNumber(to)) {
      const campaign = number.a2pCampaignId ? await store.getCampaign(caller.workspaceId, number.a2pCampaignId) : undefined;
      if (campaign?.status !== 'approved') {
        throw configurationError('a US 10DLC number needs an A2P registration linked to an approved campaign to send to US numbers');
      }
    }
    return route;
  }

  /**
   * Holds the message's price at billing. Refused or unanswered, the send ends here: its message
   * and its key go, and when billing did not answer (it may have made the hold) a release follows
   * through the outbox.
   */
  async function hold(message: MessageRecord, requestId: string): Promise<void> {
    let answer: HoldAnswer;
    try {
      answer = await deps.holds.authorize({
        workspaceId: message.workspaceId,
        holdId: smsHoldId(message),
        creditUnits: message.creditUnits,
        kind: smsUsageKind,
        reference: message.id,
        description: smsDescription(message),
        expiresInSeconds: deps.smsHoldSeconds,
        requestId,
      });
    } catch (error) {
      if (!(error instanceof BillingUnreachable)) {
        await store.abandonSend(message.id);
        throw error;
      }
      // Billing may have made the hold before its answer was lost: the release goes through the outbox.
      if (await store.abandonSend(message.id, smsReleaseEvent(message, deps.now().toISOString()))) deps.wakeRelay();
      throw serviceError('telephony_unavailable', 'the platform could not hold the price of the message; nothing was sent or charged, retry shortly', { cause: error });
    }
    if (answer.kind === 'refused') {
      await store.abandonSend(message.id);
      throw serviceError(
        'conflict',
        `not enough credits: the message costs ${formatCredits(message.creditUnits)} credits and ${formatCredits(Math.max(0, answer.availableUnits))} are available`,
      );
    }
  }

  /**
   * A send that outlived the recovery age was settled by the recovery meanwhile (the carrier
   * records it, so it was accepted and billed there): the message as the recovery left it.
   */
  async function settledByRecovery(message: MessageRecord): Promise<MessageRecord> {
    const settled = await store.getMessage(message.workspaceId, message.id);
    if (!settled) throw new Error(`message ${message.id} was taken by the carrier but abandoned by the recovery of interrupted sends`);
    return settled;
  }

  /** The answer to a send whose key an earlier request holds. */
  function answerForClaimed(outcome: ClaimOutcome) {
    switch (outcome.kind) {
      case 'replayed':
        return { message: presentMessage(outcome.message), replayed: true };
      case 'in_progress':
        throw serviceError('conflict', 'a request with this Idempotency-Key is still being processed; retry shortly');
      case 'key_reused':
        throw serviceError('conflict', 'this Idempotency-Key was already used with a different request body');
    }
  }

  return {
    async sendSms(request: SendSmsRequest, caller: WorkspaceCaller) {
      const fields = { from_number_id: request.fromNumberId, to: request.to, body: request.body };
      const input = parseInput(sendSmsBodySchema, fields);
      const now = deps.now();
      const at = now.toISOString();
      const claim = request.idempotencyKey ? idempotencyClaim(request.idempotencyKey, fields, now) : undefined;
      // A retry under a used key answers as the first request did, whatever changed since (API.md 1).
      const earlier = claim && (await store.claimedSend(caller.workspaceId, claim));
      if (earlier) return answerForClaimed(earlier);

      const to = parseE164(input.to)!.number;
      const number = await loadOr404('phone number', input.from_number_id, (id) => store.getNumber(caller.workspaceId, id));
      const route = await senderRoute(caller, number, to);
      if (await store.isSuppressed(caller.workspaceId, to)) {
        throw serviceError('destination_forbidden', "the destination is on this workspace's suppression list");
      }
      const { segments, encoding } = segmentSms(input.body);
      const message: MessageRecord = {
        id: newId(),
        workspaceId: caller.workspaceId,
        fromNumberId: number.id,
        from: number.number,
        to,
        body: input.body,
        segments,
        encoding,
        creditUnits: smsPriceUnits(deps.pricing, segments, number.source),
        status: 'sending',
        failureReason: '',
        carrierConnectionId: route.connectionId,
        carrierMessageId: null,
        createdAt: at,
        updatedAt: at,
      };

      const begun = await store.beginSend(message, claim);
      // A send under the same key got there first.
      if (begun.kind !== 'begun') return answerForClaimed(begun);
      // A free message (prices may be configured to zero) has nothing to hold.
      if (message.creditUnits > 0) await hold(message, caller.requestId);

      let carrierMessageId: string;
      try {
        ({ carrierMessageId } = await withCarrier(() =>
          route.adapter.sendSms({ from: number.number, to, body: input.body, statusCallbackUrl: deps.carriers.callbackUrl(route.connectionId) }),
        ));
      } catch (error) {
        if (await store.abandonSend(message.id, smsReleaseEvent(message, deps.now().toISOString()))) deps.wakeRelay();
        throw error;
      }
      const acceptedAt = deps.now().toISOString();
      const accepted = await store.acceptSend(message.id, carrierMessageId, smsCaptureEvent(message, acceptedAt), acceptedAt, smsStatusChangedEvent);
      if (!accepted) return { message: presentMessage(await settledByRecovery(message)), replayed: false };
      deps.wakeRelay();
      return { message: presentMessage(accepted), replayed: false };
    },

    async listMessages(request: ListMessagesRequest, caller: WorkspaceCaller) {
      const number = request.number ? parseE164(request.number)?.number : undefined;
      const issues = [
        ...(request.status !== undefined && !(messageStatuses as readonly string[]).includes(request.status)
          ? [{ field: 'status', issue: `must be one of ${messageStatuses.join(', ')}` }]
          : []),
        ...(request.number && !number ? [{ field: 'number', issue: 'must be a valid phone number' }] : []),
      ];
      if (issues.length > 0) throw invalidRequest(issues);
      const filter = {
        status: request.status as MessageStatus | undefined,
        number,
        createdFrom: toIso(request.createdFrom) ?? undefined,
        createdTo: toIso(request.createdTo) ?? undefined,
      };
      const { messages, total } = await store.listMessages(caller.workspaceId, filter, normalisePage(request.page));
      return { messages: messages.map(presentMessage), total };
    },

    async getMessage(request: GetMessageRequest, caller: WorkspaceCaller) {
      const message = await loadOr404('message', request.id, (id) => store.getMessage(caller.workspaceId, id));
      return { message: presentMessage(message) };
    },
  };
}
