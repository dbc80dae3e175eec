// Transactional outbox in a service's own SQLite database: the event row commits or rolls back
// with the business write, and the relay publishes committed rows afterwards.
import type Database from 'better-sqlite3';
import { statementCache, type SqliteDatabase } from './database.js';
import { nowIso } from '../../time.js';
import type { NewOutboxEvent, OutboxEvent, OutboxReader } from '../../events/outbox.js';

/**
 * Appended by a service to its own migrations. Rows are read in rowid order, which is commit
 * order (SQLite has one writer, and pending rows are never deleted, so rowids never go back).
 * The one index serves both the pending scan (NULLs first, in rowid order) and pruning.
 */
export const sqliteOutboxMigration = `
  CREATE TABLE outbox (
    id TEXT PRIMARY KEY,
    subject TEXT NOT NULL,
    payload BLOB NOT NULL,
    created_at TEXT NOT NULL,
    published_at TEXT
  );
  CREATE INDEX outbox_by_published_at ON outbox (published_at);
`;

interface OutboxRow {
  id: string;
  subject: string;
  payload: Buffer;
  created_at: string;
}

export class SqliteOutbox implements OutboxReader {
  private readonly sql: (text: string) => Database.Statement;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly clock: () => string = nowIso,
  ) {
    this.sql = statementCache(db);
  }

  /** Must run inside the caller's transaction, so the event exists exactly when the write does. */
  add(event: NewOutboxEvent): void {
    if (!this.db.inTransaction) throw new Error('SqliteOutbox.add must run inside the transaction of the business write');
    this.sql('INSERT INTO outbox (id, subject, payload, created_at) VALUES (?, ?, ?, ?)')
      .run(event.id, event.subject, event.payload, this.clock());
  }

  async pending(limit: number): Promise<OutboxEvent[]> {
    const rows = this.sql('SELECT id, subject, payload, created_at FROM outbox WHERE published_at IS NULL ORDER BY rowid LIMIT ?')
      .all(limit) as OutboxRow[];
    return rows.map((row) => ({
      id: row.id,
      subject: row.subject,
      payload: new Uint8Array(row.payload.buffer, row.payload.byteOffset, row.payload.byteLength),
      createdAt: row.created_at,
    }));
  }

  async markPublished(ids: string[], at: string): Promise<void> {
    const mark = this.sql('UPDATE outbox SET published_at = ? WHERE id = ? AND published_at IS NULL');
    this.db.transaction(() => {
      for (const id of ids) mark.run(at, id);
    })();
  }

  /** Deletes events published before the given time; returns how many. */
  async prune(publishedBefore: string): Promise<number> {
    return this.sql('DELETE FROM outbox WHERE published_at < ?').run(publishedBefore).changes;
  }
}
