// IdentityStore on embedded SQLite. Writes that must agree run in one IMMEDIATE transaction,
// which also serialises them against other connections to the file.
import { openSqlite, statementCache } from '@voice/runtime/store/sqlite';
import type { SqliteContext } from './sqlite/context.js';
import { sqliteCustomerStore } from './sqlite/customers.js';
import { migrations } from './sqlite/migrations.js';
import { sqliteOAuthStore } from './sqlite/oauth.js';
import { sqliteMemberStore } from './sqlite/users-and-members.js';
import { sqliteWorkspaceKeyStore } from './sqlite/workspaces-and-keys.js';
import type { IdentityStore } from './store.js';

/** Opens (creating and migrating) the store's file. */
export function openSqliteIdentityStore(file: string): IdentityStore {
  const db = openSqlite(file, migrations);
  const context: SqliteContext = { db, sql: statementCache(db) };
  return {
    ...sqliteWorkspaceKeyStore(context),
    ...sqliteMemberStore(context),
    ...sqliteCustomerStore(context),
    ...sqliteOAuthStore(context),
    close: async () => {
      db.close();
    },
  };
}
