// IdentityStore on embedded SQLite. Writes that must agree run in one IMMEDIATE transaction,
// which also serialises them against other connections to the file.
import { openSqlite, statementCache, type SqliteDatabase } from '@voice/runtime/store/sqlite';
import { ComposedIdentityStore } from './composed.js';
import { SqliteCustomerStore } from './sqlite/customers.js';
import { migrations } from './sqlite/migrations.js';
import { SqliteOAuthStore } from './sqlite/oauth.js';
import { SqliteMemberStore } from './sqlite/users-and-members.js';
import { SqliteWorkspaceKeyStore } from './sqlite/workspaces-and-keys.js';

export class SqliteIdentityStore extends ComposedIdentityStore {
  private readonly db: SqliteDatabase;

  constructor(file: string) {
    const db = openSqlite(file, migrations);
    const sql = statementCache(db);
    super({
      workspaceKeys: new SqliteWorkspaceKeyStore(db, sql),
      members: new SqliteMemberStore(db, sql),
      customers: new SqliteCustomerStore(db, sql),
      oauth: new SqliteOAuthStore(db, sql),
    });
    this.db = db;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
