// SMS in MongoDB: a send reserves credits, then the carrier's answer accepts (with its usage event
// in the outbox) or abandons it; delivery reports move accepted messages forward.
import type { ClientSession, Filter } from 'mongodb';
import type { MongoHandle, MongoOutbox, NewOutboxEvent, Page } from '@voice/runtime';
import type { SmsStore } from '../composed.js';
import { availableUnits, awaitingCarrier, claimDecision, failureReasonOf, statusesOvertakenBy } from '../rules.js';
import type { ClaimOutcome, DeliveryUpdate, InterruptedSend, MessageRecord, MessageStatus, Reservation, ReserveOutcome, SendClaim } from '../store.js';
import type { MongoSendClaims } from './claims.js';
import type { MongoCreditStore } from './credits.js';
import { messageDocument, messageRecord, type Collections, type MessageDocument } from './documents.js';
import { findPage, MongoStorePart } from './part.js';

export class MongoSmsStore extends MongoStorePart implements SmsStore {
  constructor(
    handle: MongoHandle,
    collections: Collections,
    private readonly outbox: MongoOutbox,
    private readonly credits: MongoCreditStore,
    private readonly claims: MongoSendClaims,
  ) {
    super(handle, collections);
  }

  async reserveSend(message: MessageRecord, reservation: Reservation, claim?: SendClaim): Promise<ReserveOutcome> {
    await this.credits.ensureView(reservation.workspaceId);
    return this.transaction(async (session): Promise<ReserveOutcome> => {
      const decided = claim && (await this.decideClaim(message.workspaceId, claim, session));
      if (decided) return decided;
      if (!(await this.credits.reserve(reservation, message.id, session))) {
        return { kind: 'insufficient_credits', availableUnits: availableUnits(await this.credits.currentView(reservation.workspaceId, session)) };
      }
      await this.collections.messages.insertOne(messageDocument(awaitingCarrier(message)), { session });
      if (claim) await this.claims.write(message.workspaceId, claim, message.id, session);
      return { kind: 'reserved' };
    });
  }

  async claimedSend(workspaceId: string, claim: SendClaim): Promise<ClaimOutcome | undefined> {
    return this.decideClaim(workspaceId, claim);
  }

  async acceptSend(messageId: string, carrierMessageId: string, usageEvent: NewOutboxEvent, now: string): Promise<MessageRecord | undefined> {
    return this.transaction(async (session) => {
      const accepted = await this.collections.messages.findOneAndUpdate(
        { _id: messageId, status: 'sending' },
        { $set: { status: 'queued', carrier_message_id: carrierMessageId, updated_at: now } },
        { session, returnDocument: 'after' },
      );
      if (!accepted) return undefined;
      const message = messageRecord(accepted);
      await this.claims.recordFirstResponse(message, session);
      await this.outbox.add(usageEvent, session);
      return message;
    });
  }

  async abandonSend(messageId: string, reservationId: string | null): Promise<void> {
    await this.transaction(async (session) => {
      const abandoned = await this.collections.messages.findOneAndDelete({ _id: messageId, status: 'sending' }, { session });
      if (!abandoned) return;
      if (reservationId !== null) await this.credits.closeReservation(abandoned.workspace_id, reservationId, session);
      await this.claims.releaseFor(messageId, session);
    });
  }

  async interruptedSends(createdBefore: string, limit: number): Promise<InterruptedSend[]> {
    const docs = await this.collections.messages.find({ status: 'sending', created_at: { $lt: createdBefore } }).sort({ created_at: 1 }).limit(limit).toArray();
    const reservations = await this.collections.reservations.find({ message_id: { $in: docs.map((doc) => doc._id) } }).toArray();
    const reservationOf = new Map(reservations.map((reservation) => [reservation.message_id, reservation._id]));
    return docs.map((doc) => ({ message: messageRecord(doc), reservationId: reservationOf.get(doc._id) ?? null }));
  }

  async unrecordedCarrierIds(carrierConnectionId: string | null, carrierMessageIds: string[]): Promise<string[]> {
    const recorded = await this.collections.messages
      .find({ carrier_connection_id: carrierConnectionId, carrier_message_id: { $in: carrierMessageIds } }, { projection: { carrier_message_id: 1 } })
      .toArray();
    const taken = new Set(recorded.map((doc) => doc.carrier_message_id));
    return carrierMessageIds.filter((id) => !taken.has(id));
  }

  private async decideClaim(workspaceId: string, claim: SendClaim, session?: ClientSession): Promise<ClaimOutcome | undefined> {
    const stored = await this.claims.find(workspaceId, claim.key, session);
    const claimed = stored && (await this.collections.messages.findOne({ _id: stored.messageId }, { session }));
    return claimDecision(stored, claim, claimed ? messageRecord(claimed) : undefined);
  }

  async getMessage(workspaceId: string, id: string): Promise<MessageRecord | undefined> {
    const doc = await this.collections.messages.findOne({ _id: id, workspace_id: workspaceId, status: { $ne: 'sending' } });
    return doc ? messageRecord(doc) : undefined;
  }

  async listMessages(workspaceId: string, filter: { status?: MessageStatus }, page: Page): Promise<{ messages: MessageRecord[]; total: number }> {
    const status = filter.status === undefined ? { $ne: 'sending' } : { $ne: 'sending', $eq: filter.status };
    const { docs, total } = await findPage(this.collections.messages, { workspace_id: workspaceId, status }, page);
    return { messages: docs.map(messageRecord), total };
  }

  async applyDelivery(carrierConnectionId: string | null, carrierMessageId: string, update: DeliveryUpdate): Promise<MessageRecord | undefined> {
    // Spelled with the unique index's partial filter, so that index serves the lookup.
    const byCarrierId: Filter<MessageDocument> = { carrier_connection_id: carrierConnectionId, carrier_message_id: { $eq: carrierMessageId, $type: 'string' } };
    const moved = await this.collections.messages.findOneAndUpdate(
      { ...byCarrierId, status: { $in: statusesOvertakenBy(update.status) } },
      { $set: { status: update.status, failure_reason: failureReasonOf(update), updated_at: update.at } },
      { returnDocument: 'after' },
    );
    const current = moved ?? (await this.collections.messages.findOne(byCarrierId));
    return current ? messageRecord(current) : undefined;
  }
}
