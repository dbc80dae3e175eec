// TelephonyStore on embedded SQLite. Writes that must agree run in one IMMEDIATE transaction,
// which also serialises them against other connections to the file; the usage events that
// capture or release a send's hold enter the outbox in the transaction that settles the send.
import { openSqlite, SqliteOutbox, statementCache, type SqliteDatabase } from '@voice/runtime/store/sqlite';
import { ComposedTelephonyStore } from './composed.js';
import { SqliteCampaignStore } from './sqlite/campaigns.js';
import { SqliteSendClaims } from './sqlite/claims.js';
import { SqliteConnectionStore } from './sqlite/connections.js';
import { migrations } from './sqlite/migrations.js';
import { SqliteNumberStore } from './sqlite/numbers.js';
import { SqliteSmsStore } from './sqlite/sms.js';
import { SqliteSuppressionStore } from './sqlite/suppressions.js';

export class SqliteTelephonyStore extends ComposedTelephonyStore {
  readonly outbox: SqliteOutbox;
  private readonly db: SqliteDatabase;

  constructor(file: string) {
    const db = openSqlite(file, migrations);
    const sql = statementCache(db);
    const outbox = new SqliteOutbox(db);
    super({
      numbers: new SqliteNumberStore(db, sql, outbox),
      connections: new SqliteConnectionStore(db, sql),
      campaigns: new SqliteCampaignStore(db, sql),
      suppressions: new SqliteSuppressionStore(db, sql),
      sms: new SqliteSmsStore(db, sql, outbox, new SqliteSendClaims(sql)),
    });
    this.db = db;
    this.outbox = outbox;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
