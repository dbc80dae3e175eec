// TelephonyStore on embedded SQLite. Writes that must agree run in one IMMEDIATE transaction,
// which also serialises them against other connections to the file; the usage events that
// capture or release a send's hold enter the outbox in the transaction that settles the send.
import { openSqlite, SqliteOutbox, statementCache } from '@voice/runtime/store/sqlite';
import type { TelephonyStore } from './store.js';
import { sqliteCallLegStore } from './sqlite/call-legs.js';
import { sqliteCampaignStore } from './sqlite/campaigns.js';
import { sqliteConnectionStore } from './sqlite/connections.js';
import { migrations } from './sqlite/migrations.js';
import { sqliteNumberStore } from './sqlite/numbers.js';
import { sqliteCallerIdStore } from './sqlite/caller-ids.js';
import { sqliteSipTrunkStore } from './sqlite/sip-trunks.js';
import { sqliteSmsStore } from './sqlite/sms.js';
import type { SqliteContext } from './sqlite/statements.js';
import { sqliteSuppressionStore } from './sqlite/suppressions.js';

/** Opens (creating and migrating) the store's file. */
export function openSqliteTelephonyStore(file: string): TelephonyStore {
  const db = openSqlite(file, migrations);
  const context: SqliteContext = { db, sql: statementCache(db), outbox: new SqliteOutbox(db) };
  return {
    ...sqliteNumberStore(context),
    ...sqliteConnectionStore(context),
    ...sqliteSipTrunkStore(context),
    ...sqliteCallerIdStore(context),
    ...sqliteCampaignStore(context),
    ...sqliteSuppressionStore(context),
    ...sqliteSmsStore(context),
    ...sqliteCallLegStore(context),
    outbox: context.outbox,
    close: async () => {
      db.close();
    },
  };
}
