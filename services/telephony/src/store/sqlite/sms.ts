// SMS in SQLite: a send begins (its message waiting, its key claimed), then the carrier's answer
// accepts it (with the usage event capturing its hold in the outbox) or it is abandoned (with the
// event releasing its hold); delivery reports move accepted messages forward, and one that comes
// before its message is accepted waits for the acceptance to apply it.
import type { NewOutboxEvent } from '@voice/runtime/events';
import { insertRow } from '@voice/runtime/store/sqlite';
import type { Page } from '@voice/runtime/validation';
import { awaitingCarrier, claimDecision, failureReasonOf, movesByEarlyReports, statusesOvertakenBy } from '../rules.js';
import type { BeginOutcome, ClaimOutcome, DeliveryUpdate, MessageFilter, MessageRecord, SendClaim } from '../store.js';
import type { DeliveryStore, InterruptedSendStore, MessageStore, SendStore } from '../store.js';
import { SqliteSendClaims } from './claims.js';
import { SqliteEarlyReports } from './early-reports.js';
import { messageFromRow, messageRow, type MessageRow } from './rows.js';
import { selectPage, type SqliteContext } from './statements.js';

export function sqliteSmsStore({ db, sql, outbox }: SqliteContext): SendStore & InterruptedSendStore & MessageStore & DeliveryStore {
  const claims = new SqliteSendClaims(sql);
  const earlyReports = new SqliteEarlyReports(sql);
  const messageById = (id: string): MessageRecord | undefined => {
    const row = sql('SELECT * FROM sms_messages WHERE id = ?').get(id) as MessageRow | undefined;
    return row ? messageFromRow(row) : undefined;
  };
  const decideClaim = (workspaceId: string, claim: SendClaim): ClaimOutcome | undefined => {
    const stored = claims.find(workspaceId, claim.key);
    return claimDecision(stored, claim, stored && messageById(stored.messageId));
  };

  return {
    async beginSend(message: MessageRecord, claim?: SendClaim): Promise<BeginOutcome> {
      return db.transaction((): BeginOutcome => {
        const decided = claim && decideClaim(message.workspaceId, claim);
        if (decided) return decided;
        insertRow(sql, 'sms_messages', messageRow(awaitingCarrier(message)));
        if (claim) claims.write(message.workspaceId, claim, message.id);
        return { kind: 'begun' };
      }).immediate();
    },

    async claimedSend(workspaceId: string, claim: SendClaim): Promise<ClaimOutcome | undefined> {
      return db.transaction(() => decideClaim(workspaceId, claim))();
    },

    async acceptSend(
      messageId: string,
      carrierMessageId: string,
      usageEvent: NewOutboxEvent | undefined,
      now: string,
      statusEventOf: (message: MessageRecord) => NewOutboxEvent,
    ): Promise<MessageRecord | undefined> {
      return db.transaction(() => {
        const accepted = sql("UPDATE sms_messages SET status = 'queued', carrier_message_id = ?, updated_at = ? WHERE id = ? AND status = 'sending' RETURNING *")
          .get(carrierMessageId, now, messageId) as MessageRow | undefined;
        if (!accepted) return undefined;
        const queued = messageFromRow(accepted);
        const moves = movesByEarlyReports(queued, earlyReports.take(queued.carrierConnectionId, carrierMessageId));
        const message = moves.at(-1) ?? queued;
        if (moves.length > 0) {
          sql('UPDATE sms_messages SET status = ?, failure_reason = ?, updated_at = ? WHERE id = ?').run(message.status, message.failureReason, message.updatedAt, messageId);
        }
        claims.recordFirstResponse(message);
        if (usageEvent) outbox.add(usageEvent);
        for (const move of moves) outbox.add(statusEventOf(move));
        return message;
      }).immediate();
    },

    async abandonSend(messageId: string, releaseEvent?: NewOutboxEvent): Promise<boolean> {
      return db.transaction(() => {
        const abandoned = sql("DELETE FROM sms_messages WHERE id = ? AND status = 'sending'").run(messageId);
        if (abandoned.changes === 0) return false;
        claims.releaseFor(messageId);
        if (releaseEvent) outbox.add(releaseEvent);
        return true;
      }).immediate();
    },

    async pruneSendClaims(createdBefore: string, limit: number): Promise<number> {
      return claims.prune(createdBefore, limit);
    },

    async pruneEarlyReports(receivedBefore: string, limit: number): Promise<number> {
      return earlyReports.prune(receivedBefore, limit);
    },

    async interruptedSends(createdBefore: string, limit: number): Promise<MessageRecord[]> {
      const rows = sql("SELECT * FROM sms_messages WHERE status = 'sending' AND created_at < ? ORDER BY created_at LIMIT ?").all(createdBefore, limit) as MessageRow[];
      return rows.map(messageFromRow);
    },

    async unrecordedCarrierIds(carrierConnectionId: string | null, carrierMessageIds: string[]): Promise<string[]> {
      const recorded = sql(
        `SELECT carrier_message_id FROM sms_messages
         WHERE IFNULL(carrier_connection_id, '') = ? AND carrier_message_id IN (SELECT value FROM json_each(?))`,
      )
        .all(carrierConnectionId ?? '', JSON.stringify(carrierMessageIds))
        .map((row) => (row as { carrier_message_id: string }).carrier_message_id);
      return carrierMessageIds.filter((id) => !recorded.includes(id));
    },

    async getMessage(workspaceId: string, id: string): Promise<MessageRecord | undefined> {
      const row = sql("SELECT * FROM sms_messages WHERE id = ? AND workspace_id = ? AND status != 'sending'").get(id, workspaceId) as MessageRow | undefined;
      return row ? messageFromRow(row) : undefined;
    },

    async listMessages(workspaceId: string, filter: MessageFilter, page: Page): Promise<{ messages: MessageRecord[]; total: number }> {
      const where = ["workspace_id = @workspaceId", "status != 'sending'"];
      if (filter.status !== undefined) where.push('status = @status');
      if (filter.number !== undefined) where.push('(from_number = @number OR to_number = @number)');
      if (filter.createdFrom !== undefined) where.push('created_at >= @createdFrom');
      if (filter.createdTo !== undefined) where.push('created_at < @createdTo');
      const { rows, total } = selectPage<MessageRow>(db, sql, { table: 'sms_messages', where: where.join(' AND '), params: { workspaceId, ...filter } }, page);
      return { messages: rows.map(messageFromRow), total };
    },

    async applyDelivery(
      carrierConnectionId: string | null,
      carrierMessageId: string,
      update: DeliveryUpdate,
      eventOf: (message: MessageRecord) => NewOutboxEvent,
    ): Promise<MessageRecord | undefined> {
      const carrier = { connection: carrierConnectionId ?? '', carrierMessageId };
      const byCarrierId = "IFNULL(carrier_connection_id, '') = @connection AND carrier_message_id = @carrierMessageId";
      return db.transaction(() => {
        const moved = sql(
          `UPDATE sms_messages SET status = @status, failure_reason = @failureReason, updated_at = @at
           WHERE ${byCarrierId} AND status IN (SELECT value FROM json_each(@overtaken))`,
        ).run({
          ...carrier,
          status: update.status,
          failureReason: failureReasonOf(update),
          at: update.at,
          overtaken: JSON.stringify(statusesOvertakenBy(update.status)),
        }).changes;
        const row = sql(`SELECT * FROM sms_messages WHERE ${byCarrierId}`).get(carrier) as MessageRow | undefined;
        const message = row ? messageFromRow(row) : undefined;
        if (message && moved > 0) outbox.add(eventOf(message));
        if (!message) earlyReports.keep(carrierConnectionId, carrierMessageId, update);
        return message;
      }).immediate();
    },
  };
}
