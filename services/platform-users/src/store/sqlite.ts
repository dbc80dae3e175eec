// PlatformUsersStore on embedded SQLite: custom domains (one row per workspace, an active domain
// unique platform-wide), invitations, the mail outbox and the e-mail senders, in one file.
import { openSqlite, statementCache } from '@voice/runtime/store/sqlite';
import type { SqliteContext } from './sqlite/context.js';
import { sqliteCustomDomainStore } from './sqlite/custom-domains.js';
import { sqliteEmailSenderStore } from './sqlite/email-senders.js';
import { sqliteInvitationStore } from './sqlite/invitations.js';
import { sqliteMailOutboxStore } from './sqlite/mail-outbox.js';
import { migrations } from './sqlite/migrations.js';
import type { PlatformUsersStore } from './store.js';

/** Opens (creating and migrating) the store's file. */
export function openSqlitePlatformUsersStore(file: string): PlatformUsersStore {
  const db = openSqlite(file, migrations);
  const context: SqliteContext = { db, sql: statementCache(db) };
  return {
    ...sqliteCustomDomainStore(context),
    ...sqliteInvitationStore(context),
    ...sqliteMailOutboxStore(context),
    ...sqliteEmailSenderStore(context),
    close: async () => {
      db.close();
    },
  };
}
