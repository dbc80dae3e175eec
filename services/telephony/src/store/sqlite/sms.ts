// SMS in SQLite: a send reserves credits, then the carrier's answer accepts (with its usage event
// in the outbox) or abandons it; delivery reports move accepted messages forward.
import type { NewOutboxEvent, Page, SqliteDatabase, SqliteOutbox } from '@voice/runtime';
import type { SmsStore } from '../composed.js';
import { availableUnits, awaitingCarrier, claimDecision, failureReasonOf, reservationFits, statusesOvertakenBy } from '../rules.js';
import type { ClaimOutcome, DeliveryUpdate, InterruptedSend, MessageRecord, MessageStatus, Reservation, ReserveOutcome, SendClaim } from '../store.js';
import type { SqliteSendClaims } from './claims.js';
import type { SqliteCreditStore } from './credits.js';
import { messageFromRow, messageRow, type MessageRow } from './rows.js';
import { insertRow, selectPage, type Sql } from './statements.js';

export class SqliteSmsStore implements SmsStore {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly sql: Sql,
    private readonly outbox: SqliteOutbox,
    private readonly credits: SqliteCreditStore,
    private readonly claims: SqliteSendClaims,
  ) {}

  async reserveSend(message: MessageRecord, reservation: Reservation, claim?: SendClaim): Promise<ReserveOutcome> {
    return this.db.transaction((): ReserveOutcome => {
      const decided = claim && this.decideClaim(message.workspaceId, claim);
      if (decided) return decided;
      const view = this.credits.currentView(reservation.workspaceId);
      if (!reservationFits(view, reservation.creditUnits)) {
        return { kind: 'insufficient_credits', availableUnits: availableUnits(view) };
      }
      insertRow(this.sql, 'sms_messages', messageRow(awaitingCarrier(message)));
      this.credits.openReservation(reservation, message.id);
      if (claim) this.claims.write(message.workspaceId, claim, message.id);
      return { kind: 'reserved' };
    }).immediate();
  }

  async claimedSend(workspaceId: string, claim: SendClaim): Promise<ClaimOutcome | undefined> {
    return this.db.transaction(() => this.decideClaim(workspaceId, claim))();
  }

  async acceptSend(messageId: string, carrierMessageId: string, usageEvent: NewOutboxEvent, now: string): Promise<MessageRecord | undefined> {
    return this.db.transaction(() => {
      const accepted = this.sql("UPDATE sms_messages SET status = 'queued', carrier_message_id = ?, updated_at = ? WHERE id = ? AND status = 'sending' RETURNING *")
        .get(carrierMessageId, now, messageId) as MessageRow | undefined;
      if (!accepted) return undefined;
      const message = messageFromRow(accepted);
      this.claims.recordFirstResponse(message);
      this.outbox.add(usageEvent);
      return message;
    }).immediate();
  }

  async abandonSend(messageId: string, reservationId: string | null): Promise<void> {
    this.db.transaction(() => {
      const abandoned = this.sql("DELETE FROM sms_messages WHERE id = ? AND status = 'sending' RETURNING workspace_id").get(messageId) as
        | { workspace_id: string }
        | undefined;
      if (!abandoned) return;
      if (reservationId !== null) this.credits.closeReservation(abandoned.workspace_id, reservationId);
      this.claims.releaseFor(messageId);
    }).immediate();
  }

  async interruptedSends(createdBefore: string, limit: number): Promise<InterruptedSend[]> {
    const rows = this.sql(
      `SELECT sms_messages.*, reservations.id AS reservation_id FROM sms_messages
       LEFT JOIN reservations ON reservations.message_id = sms_messages.id
       WHERE sms_messages.status = 'sending' AND sms_messages.created_at < ? ORDER BY sms_messages.created_at LIMIT ?`,
    ).all(createdBefore, limit) as (MessageRow & { reservation_id: string | null })[];
    return rows.map((row) => ({ message: messageFromRow(row), reservationId: row.reservation_id }));
  }

  async unrecordedCarrierIds(carrierConnectionId: string | null, carrierMessageIds: string[]): Promise<string[]> {
    const recorded = this.sql(
      `SELECT carrier_message_id FROM sms_messages
       WHERE IFNULL(carrier_connection_id, '') = ? AND carrier_message_id IN (SELECT value FROM json_each(?))`,
    )
      .all(carrierConnectionId ?? '', JSON.stringify(carrierMessageIds))
      .map((row) => (row as { carrier_message_id: string }).carrier_message_id);
    return carrierMessageIds.filter((id) => !recorded.includes(id));
  }

  async getMessage(workspaceId: string, id: string): Promise<MessageRecord | undefined> {
    const row = this.sql("SELECT * FROM sms_messages WHERE id = ? AND workspace_id = ? AND status != 'sending'").get(id, workspaceId) as MessageRow | undefined;
    return row ? messageFromRow(row) : undefined;
  }

  async listMessages(workspaceId: string, filter: { status?: MessageStatus }, page: Page): Promise<{ messages: MessageRecord[]; total: number }> {
    const where = ["workspace_id = @workspaceId", "status != 'sending'"];
    if (filter.status !== undefined) where.push('status = @status');
    const { rows, total } = selectPage<MessageRow>(
      this.db,
      this.sql,
      { table: 'sms_messages', where: where.join(' AND '), params: { workspaceId, status: filter.status } },
      page,
    );
    return { messages: rows.map(messageFromRow), total };
  }

  async applyDelivery(carrierConnectionId: string | null, carrierMessageId: string, update: DeliveryUpdate): Promise<MessageRecord | undefined> {
    const carrier = { connection: carrierConnectionId ?? '', carrierMessageId };
    const byCarrierId = "IFNULL(carrier_connection_id, '') = @connection AND carrier_message_id = @carrierMessageId";
    return this.db.transaction(() => {
      this.sql(
        `UPDATE sms_messages SET status = @status, failure_reason = @failureReason, updated_at = @at
         WHERE ${byCarrierId} AND status IN (SELECT value FROM json_each(@overtaken))`,
      ).run({
        ...carrier,
        status: update.status,
        failureReason: failureReasonOf(update),
        at: update.at,
        overtaken: JSON.stringify(statusesOvertakenBy(update.status)),
      });
      const row = this.sql(`SELECT * FROM sms_messages WHERE ${byCarrierId}`).get(carrier) as MessageRow | undefined;
      return row ? messageFromRow(row) : undefined;
    }).immediate();
  }

  private decideClaim(workspaceId: string, claim: SendClaim): ClaimOutcome | undefined {
    const stored = this.claims.find(workspaceId, claim.key);
    return claimDecision(stored, claim, stored && this.messageById(stored.messageId));
  }

  private messageById(id: string): MessageRecord | undefined {
    const row = this.sql('SELECT * FROM sms_messages WHERE id = ?').get(id) as MessageRow | undefined;
    return row ? messageFromRow(row) : undefined;
  }
}
