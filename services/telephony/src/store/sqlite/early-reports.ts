// Delivery reports in SQLite for a carrier id no message holds yet (a carrier can report before the
// transaction that records its answer commits), kept until the send's acceptance takes them. The
// platform's carrier (null) is kept as ''.
import type { DeliveryUpdate } from '../store.js';
import { failureReasonOf } from '../rules.js';
import type { Sql } from './statements.js';

export class SqliteEarlyReports {
  constructor(private readonly sql: Sql) {}

  keep(carrierConnectionId: string | null, carrierMessageId: string, update: DeliveryUpdate): void {
    this.sql('INSERT INTO sms_early_reports (carrier_connection_id, carrier_message_id, status, failure_reason, at) VALUES (?, ?, ?, ?, ?)').run(
      carrierConnectionId ?? '',
      carrierMessageId,
      update.status,
      failureReasonOf(update),
      update.at,
    );
  }

  /** The reports kept for the carrier id, in the order they came, removing them. */
  take(carrierConnectionId: string | null, carrierMessageId: string): DeliveryUpdate[] {
    const rows = this.sql(
      'DELETE FROM sms_early_reports WHERE carrier_connection_id = ? AND carrier_message_id = ? RETURNING rowid, status, failure_reason, at',
    ).all(carrierConnectionId ?? '', carrierMessageId) as { rowid: number; status: DeliveryUpdate['status']; failure_reason: string; at: string }[];
    return rows.sort((a, b) => a.rowid - b.rowid).map((row) => ({ status: row.status, failureReason: row.failure_reason, at: row.at }));
  }

  prune(receivedBefore: string, limit: number): number {
    return this.sql('DELETE FROM sms_early_reports WHERE rowid IN (SELECT rowid FROM sms_early_reports WHERE at < ? ORDER BY at LIMIT ?)').run(receivedBefore, limit).changes;
  }
}
