// SMS in SQLite: a send begins (its message waiting, its key claimed), then the carrier's answer
// accepts it (with the usage event capturing its hold in the outbox) or it is abandoned (with the
// event releasing its hold); delivery reports move accepted messages forward.
import type { NewOutboxEvent } from '@voice/runtime/events';
import type { SqliteDatabase, SqliteOutbox } from '@voice/runtime/store/sqlite';
import type { Page } from '@voice/runtime/validation';
import type { SmsStore } from '../composed.js';
import { awaitingCarrier, claimDecision, failureReasonOf, statusesOvertakenBy } from '../rules.js';
import type { BeginOutcome, ClaimOutcome, DeliveryUpdate, MessageRecord, MessageStatus, SendClaim } from '../store.js';
import type { SqliteSendClaims } from './claims.js';
import { messageFromRow, messageRow, type MessageRow } from './rows.js';
import { insertRow, selectPage, type Sql } from './statements.js';

export class SqliteSmsStore implements SmsStore {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly sql: Sql,
    private readonly outbox: SqliteOutbox,
    private readonly claims: SqliteSendClaims,
  ) {}

  async beginSend(message: MessageRecord, claim?: SendClaim): Promise<BeginOutcome> {
    return this.db.transaction((): BeginOutcome => {
      const decided = claim && this.decideClaim(message.workspaceId, claim);
      if (decided) return decided;
      insertRow(this.sql, 'sms_messages', messageRow(awaitingCarrier(message)));
      if (claim) this.claims.write(message.workspaceId, claim, message.id);
      return { kind: 'begun' };
    }).immediate();
  }

  async claimedSend(workspaceId: string, claim: SendClaim): Promise<ClaimOutcome | undefined> {
    return this.db.transaction(() => this.decideClaim(workspaceId, claim))();
  }

  async acceptSend(messageId: string, carrierMessageId: string, usageEvent: NewOutboxEvent | undefined, now: string): Promise<MessageRecord | undefined> {
    return this.db.transaction(() => {
      const accepted = this.sql("UPDATE sms_messages SET status = 'queued', carrier_message_id = ?, updated_at = ? WHERE id = ? AND status = 'sending' RETURNING *")
        .get(carrierMessageId, now, messageId) as MessageRow | undefined;
      if (!accepted) return undefined;
      const message = messageFromRow(accepted);
      this.claims.recordFirstResponse(message);
      if (usageEvent) this.outbox.add(usageEvent);
      return message;
    }).immediate();
  }

  async abandonSend(messageId: string, releaseEvent?: NewOutboxEvent): Promise<boolean> {
    return this.db.transaction(() => {
      const abandoned = this.sql("DELETE FROM sms_messages WHERE id = ? AND status = 'sending'").run(messageId);
      if (abandoned.changes === 0) return false;
      this.claims.releaseFor(messageId);
      if (releaseEvent) this.outbox.add(releaseEvent);
      return true;
    }).immediate();
  }

  async interruptedSends(createdBefore: string, limit: number): Promise<MessageRecord[]> {
    const rows = this.sql("SELECT * FROM sms_messages WHERE status = 'sending' AND created_at < ? ORDER BY created_at LIMIT ?").all(createdBefore, limit) as MessageRow[];
    return rows.map(messageFromRow);
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
