// SMS in MongoDB: a send begins (its message waiting, its key claimed), then the carrier's answer
// accepts it (with the usage event capturing its hold in the outbox) or it is abandoned (with the
// event releasing its hold); delivery reports move accepted messages forward, and one that comes
// before its message is accepted waits for the acceptance to apply it.
import type { ClientSession, Filter } from 'mongodb';
import type { NewOutboxEvent } from '@voice/runtime/events';
import { inTransaction } from '@voice/runtime/store/mongo';
import type { Page } from '@voice/runtime/validation';
import { awaitingCarrier, claimDecision, failureReasonOf, movesByEarlyReports, statusesOvertakenBy } from '../rules.js';
import type { BeginOutcome, ClaimOutcome, DeliveryUpdate, MessageFilter, MessageRecord, SendClaim } from '../store.js';
import type { DeliveryStore, InterruptedSendStore, MessageStore, SendStore } from '../store.js';
import { MongoSendClaims } from './claims.js';
import { messageDocument, messageRecord, type MessageDocument } from './documents.js';
import { MongoEarlyReports } from './early-reports.js';
import { findPage, type MongoContext } from './part.js';

export function mongoSmsStore({ handle, collections, outbox }: MongoContext): SendStore & InterruptedSendStore & MessageStore & DeliveryStore {
  const claims = new MongoSendClaims(collections.claims);
  const earlyReports = new MongoEarlyReports(collections.earlyReports);
  const decideClaim = async (workspaceId: string, claim: SendClaim, session?: ClientSession): Promise<ClaimOutcome | undefined> => {
    const stored = await claims.find(workspaceId, claim.key, session);
    const claimed = stored && (await collections.messages.findOne({ _id: stored.messageId }, { session }));
    return claimDecision(stored, claim, claimed ? messageRecord(claimed) : undefined);
  };

  // Spelled with the unique index's partial filter, so that index serves the lookup.
  const byCarrierId = (carrierConnectionId: string | null, carrierMessageId: string): Filter<MessageDocument> => ({
    carrier_connection_id: carrierConnectionId,
    carrier_message_id: { $eq: carrierMessageId, $type: 'string' },
  });

  /** Moves the accepted message by the reports kept for its carrier id (movesByEarlyReports), each move an event, in the session's transaction. */
  const applyEarlyReports = async (accepted: MessageDocument, eventOf: (message: MessageRecord) => NewOutboxEvent, session: ClientSession): Promise<MessageRecord> => {
    let current = messageRecord(accepted);
    for (const move of movesByEarlyReports(current, await earlyReports.take(current.carrierConnectionId, current.carrierMessageId!, session))) {
      // Written only from the state the move starts at: a writer that moved the message first makes the transaction conflict and run again.
      const moved = await collections.messages.findOneAndUpdate(
        { _id: current.id, status: current.status },
        { $set: { status: move.status, failure_reason: move.failureReason, updated_at: move.updatedAt } },
        { returnDocument: 'after', session },
      );
      if (!moved) break;
      current = messageRecord(moved);
      await outbox.add(eventOf(current), session);
    }
    return current;
  };

  /**
   * Applies what is kept for the carrier id once a message holds it, after either side committed:
   * snapshot isolation lets a report kept while the acceptance commits miss it both ways (neither
   * transaction sees the other's write), so both look again afterwards; the later one finds both.
   */
  const settleEarlyReports = (carrierConnectionId: string | null, carrierMessageId: string, eventOf: (message: MessageRecord) => NewOutboxEvent): Promise<MessageRecord | undefined> =>
    inTransaction(handle, async (session) => {
      const holder = await collections.messages.findOne(byCarrierId(carrierConnectionId, carrierMessageId), { session });
      return holder ? applyEarlyReports(holder, eventOf, session) : undefined;
    });

  return {
    async beginSend(message: MessageRecord, claim?: SendClaim): Promise<BeginOutcome> {
      return inTransaction(handle, async (session): Promise<BeginOutcome> => {
        const decided = claim && (await decideClaim(message.workspaceId, claim, session));
        if (decided) return decided;
        await collections.messages.insertOne(messageDocument(awaitingCarrier(message)), { session });
        if (claim) await claims.write(message.workspaceId, claim, message.id, session);
        return { kind: 'begun' };
      });
    },

    async claimedSend(workspaceId: string, claim: SendClaim): Promise<ClaimOutcome | undefined> {
      return decideClaim(workspaceId, claim);
    },

    async acceptSend(
      messageId: string,
      carrierMessageId: string,
      usageEvent: NewOutboxEvent | undefined,
      now: string,
      statusEventOf: (message: MessageRecord) => NewOutboxEvent,
    ): Promise<MessageRecord | undefined> {
      const accepted = await inTransaction(handle, async (session) => {
        const queued = await collections.messages.findOneAndUpdate(
          { _id: messageId, status: 'sending' },
          { $set: { status: 'queued', carrier_message_id: carrierMessageId, updated_at: now } },
          { session, returnDocument: 'after' },
        );
        if (!queued) return undefined;
        const message = await applyEarlyReports(queued, statusEventOf, session);
        await claims.recordFirstResponse(message, session);
        if (usageEvent) await outbox.add(usageEvent, session);
        return message;
      });
      if (!accepted || !(await earlyReports.any(accepted.carrierConnectionId, carrierMessageId))) return accepted;
      return (await settleEarlyReports(accepted.carrierConnectionId, carrierMessageId, statusEventOf)) ?? accepted;
    },

    async abandonSend(messageId: string, releaseEvent?: NewOutboxEvent): Promise<boolean> {
      return inTransaction(handle, async (session) => {
        const abandoned = await collections.messages.deleteOne({ _id: messageId, status: 'sending' }, { session });
        if (abandoned.deletedCount === 0) return false;
        await claims.releaseFor(messageId, session);
        if (releaseEvent) await outbox.add(releaseEvent, session);
        return true;
      });
    },

    async pruneSendClaims(createdBefore: string, limit: number): Promise<number> {
      return claims.prune(createdBefore, limit);
    },

    async pruneEarlyReports(receivedBefore: string, limit: number): Promise<number> {
      return earlyReports.prune(receivedBefore, limit);
    },

    async interruptedSends(createdBefore: string, limit: number): Promise<MessageRecord[]> {
      const docs = await collections.messages.find({ status: 'sending', created_at: { $lt: createdBefore } }).sort({ created_at: 1 }).limit(limit).toArray();
      return docs.map(messageRecord);
    },

    async unrecordedCarrierIds(carrierConnectionId: string | null, carrierMessageIds: string[]): Promise<string[]> {
      const recorded = await collections.messages
        .find({ carrier_connection_id: carrierConnectionId, carrier_message_id: { $in: carrierMessageIds } }, { projection: { carrier_message_id: 1 } })
        .toArray();
      const taken = new Set(recorded.map((doc) => doc.carrier_message_id));
      return carrierMessageIds.filter((id) => !taken.has(id));
    },

    async getMessage(workspaceId: string, id: string): Promise<MessageRecord | undefined> {
      const doc = await collections.messages.findOne({ _id: id, workspace_id: workspaceId, status: { $ne: 'sending' } });
      return doc ? messageRecord(doc) : undefined;
    },

    async listMessages(workspaceId: string, filter: MessageFilter, page: Page): Promise<{ messages: MessageRecord[]; total: number }> {
      const status = filter.status === undefined ? { $ne: 'sending' } : { $ne: 'sending', $eq: filter.status };
      const query: Filter<MessageDocument> = { workspace_id: workspaceId, status };
      if (filter.number !== undefined) query.$or = [{ from: filter.number }, { to: filter.number }];
      if (filter.createdFrom !== undefined || filter.createdTo !== undefined) {
        query.created_at = { ...(filter.createdFrom === undefined ? {} : { $gte: filter.createdFrom }), ...(filter.createdTo === undefined ? {} : { $lt: filter.createdTo }) };
      }
      const { docs, total } = await findPage(collections.messages, query, page);
      return { messages: docs.map(messageRecord), total };
    },

    async applyDelivery(
      carrierConnectionId: string | null,
      carrierMessageId: string,
      update: DeliveryUpdate,
      eventOf: (message: MessageRecord) => NewOutboxEvent,
    ): Promise<MessageRecord | undefined> {
      const applied = await inTransaction(handle, async (session) => {
        const moved = await collections.messages.findOneAndUpdate(
          { ...byCarrierId(carrierConnectionId, carrierMessageId), status: { $in: statusesOvertakenBy(update.status) } },
          { $set: { status: update.status, failure_reason: failureReasonOf(update), updated_at: update.at } },
          { returnDocument: 'after', session },
        );
        if (moved) await outbox.add(eventOf(messageRecord(moved)), session);
        const current = moved ?? (await collections.messages.findOne(byCarrierId(carrierConnectionId, carrierMessageId), { session }));
        if (!current) await earlyReports.keep(carrierConnectionId, carrierMessageId, update, session);
        return current ? messageRecord(current) : undefined;
      });
      return applied ?? settleEarlyReports(carrierConnectionId, carrierMessageId, eventOf);
    },
  };
}
