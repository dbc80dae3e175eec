// Idempotent consumption on SQLite: the ids of events a consumer has applied, recorded in the
// same transaction as the effect, so a redelivered event is recognised and skipped.
//
// The pattern, in the consumer's handler:
//
//   db.transaction(() => {
//     if (processed.seen(event.id)) return;
//     applyEffect(event);
//     processed.record(event.id, nowIso());
//   }).immediate();
//   // returning from the handler acks the event
//
// A crash before the commit leaves neither the effect nor the id, and the event comes again; a
// crash after it but before the ack brings the event again, and `seen` skips it.
import type Database from 'better-sqlite3';
import { statementCache, type SqliteDatabase } from './database.js';

/** Appended by a consuming service to its own migrations. */
export const sqliteProcessedEventsMigration = `
  CREATE TABLE processed_events (
    id TEXT PRIMARY KEY,
    processed_at TEXT NOT NULL
  );
  CREATE INDEX processed_events_by_time ON processed_events (processed_at);
`;

export class SqliteProcessedEvents {
  private readonly sql: (text: string) => Database.Statement;

  constructor(private readonly db: SqliteDatabase) {
    this.sql = statementCache(db);
  }

  seen(id: string): boolean {
    return this.sql('SELECT 1 FROM processed_events WHERE id = ?').get(id) !== undefined;
  }

  /** Must run inside the transaction that applies the event's effect. */
  record(id: string, at: string): void {
    if (!this.db.inTransaction) throw new Error('SqliteProcessedEvents.record must run inside the transaction of the effect');
    this.sql('INSERT INTO processed_events (id, processed_at) VALUES (?, ?)').run(id, at);
  }

  /**
   * Forgets ids processed before the given time; returns how many. Keep them longer than the
   * stream keeps events, or a replayed event would be applied again.
   */
  prune(processedBefore: string): number {
    return this.sql('DELETE FROM processed_events WHERE processed_at < ?').run(processedBefore).changes;
  }
}
