// Runs the PlatformUsersStore contract on SQLite always, and on MongoDB when MONGODB_URI is set.
import { newId } from '@voice/runtime/ids';
import { openSqlite } from '@voice/runtime/store/sqlite';
import { connectMongoPlatformUsersStore } from '../src/store/mongo.js';
import { openSqlitePlatformUsersStore } from '../src/store/sqlite.js';
import { migrations } from '../src/store/sqlite/migrations.js';
import { domainRecord, invitationRecord, newMail, platformUsersStoreContract } from './store.contract.js';
import { runStoreContract } from '../../runtime/test/store-contract.js';

runStoreContract({
  name: 'platform-users',
  contract: platformUsersStoreContract,
  sqlite: openSqlitePlatformUsersStore,
  mongo: connectMongoPlatformUsersStore,
  sqliteOnly: (file) => {
    test('data survives reopening the file', async () => {
      const path = file();
      const first = openSqlitePlatformUsersStore(path);
      const record = domainRecord(newId());
      await first.insert(record, record.createdAt);
      await first.close();
      const second = openSqlitePlatformUsersStore(path);
      expect(await second.get(record.workspaceId, record.createdAt)).toEqual(record);
      await second.close();
    });

    test('a database of the first schema gains invitations and mail and keeps its domains', async () => {
      const path = file();
      const old = openSqlite(path, migrations.slice(0, 1));
      old.prepare("INSERT INTO custom_domains VALUES ('w1', 'old.example.com', 't', 'active', '[]', '2026-01-01T00:00:00.000Z', NULL, NULL)").run();
      old.close();
      const store = openSqlitePlatformUsersStore(path);
      expect((await store.findActive('old.example.com'))?.workspaceId).toBe('w1');
      // Domains of the first schema never lapse, and a pending claim beside an active domain is allowed now.
      expect((await store.get('w1', '2030-01-01T00:00:00.000Z'))?.expiresAt).toBeNull();
      expect((await store.insert(domainRecord('w2', { domain: 'old.example.com' }), '2026-01-02T00:00:00.000Z')).kind).toBe('domain_taken');
      const invitation = invitationRecord();
      await store.insertInvitationWithMail(invitation, newMail());
      expect(await store.findInvitationByTokenHash(invitation.tokenHash)).toEqual(invitation);
      await store.close();
    });
  },
});
