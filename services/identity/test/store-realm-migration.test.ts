// Users written before realms join the realm of their oldest membership (the root's without
// one), on SQLite by migration and on MongoDB on connect; a membership elsewhere stays but no
// longer counts, and the same e-mail can then be registered once per realm.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@voice/runtime/ids';
import { openSqlite } from '@voice/runtime/store/sqlite';
import { connectMongoIdentityStore } from '../src/store/mongo.js';
import { migrations } from '../src/store/sqlite/migrations.js';
import { openSqliteIdentityStore } from '../src/store/sqlite.js';
import { mongoTestDatabases, mongoUriFor } from '../../runtime/test/mongo-databases.js';
import type { IdentityStore } from '../src/store/store.js';

/** Workspaces as before realms: root; a white-label platform under it; a customer of that platform; a direct customer of the root. */
const at = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`;
const root = { id: newId(), parent: null, created: at(1) };
const whiteLabel = { id: newId(), parent: root.id, created: at(2) };
const endCustomer = { id: newId(), parent: whiteLabel.id, created: at(3) };
const direct = { id: newId(), parent: root.id, created: at(4) };
/** Created as a white-label end-customer's member first, then added to a direct customer of the root (the takeover of issue 12). */
const crossing = { id: newId(), email: 'cfo@victim.example' };
const rootOnly = { id: newId(), email: 'admin@direct.example' };
const nowhere = { id: newId(), email: 'lonely@example.com' };
const memberships = [
  { workspace: endCustomer.id, user: crossing.id, created: at(10) },
  { workspace: direct.id, user: crossing.id, created: at(11) },
  { workspace: direct.id, user: rootOnly.id, created: at(12) },
];

async function expectRealms(store: IdentityStore): Promise<void> {
  expect(await store.getUser(crossing.id)).toMatchObject({ realmId: whiteLabel.id, email: crossing.email });
  expect(await store.getUser(rootOnly.id)).toMatchObject({ realmId: root.id });
  expect(await store.getUser(nowhere.id)).toMatchObject({ realmId: root.id });
  expect(await store.findUserByEmail(whiteLabel.id, crossing.email)).toMatchObject({ id: crossing.id });
  expect(await store.findUserByEmail(root.id, crossing.email)).toBeUndefined();
  // The membership across realms is still there, marked by the user's realm, which is not the workspace's.
  expect(await store.getMember(direct.id, crossing.id)).toMatchObject({ realmId: whiteLabel.id });
  const fresh = { id: newId(), realmId: root.id, email: crossing.email, name: 'CFO', passwordHash: null, createdAt: at(30) };
  expect(await store.createUser(fresh)).toBe(true);
  expect(await store.findUserByEmail(root.id, crossing.email)).toEqual(fresh);
}

describe('SQLite migration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'identity-realms-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('places each user in the realm of its oldest membership and keeps every membership', async () => {
    const file = join(dir, 'before-realms.sqlite');
    const before = openSqlite(file, migrations.slice(0, 3));
    const workspace = before.prepare("INSERT INTO workspaces (id, name, plan, status, parent_workspace_id, created_at) VALUES (?, 'w', 'enterprise', 'active', ?, ?)");
    for (const w of [root, whiteLabel, endCustomer, direct]) workspace.run(w.id, w.parent, w.created);
    const user = before.prepare("INSERT INTO users (id, email, name, password_hash, created_at) VALUES (?, ?, 'n', NULL, ?)");
    for (const u of [crossing, rootOnly, nowhere]) user.run(u.id, u.email, at(5));
    const member = before.prepare("INSERT INTO members (workspace_id, user_id, role, status, created_at) VALUES (?, ?, 'admin', 'active', ?)");
    for (const m of memberships) member.run(m.workspace, m.user, m.created);
    before.close();

    const store = openSqliteIdentityStore(file);
    try {
      await expectRealms(store);
      expect((await store.listMembers(direct.id, { limit: 10, offset: 0 })).total).toBe(2);
    } finally {
      await store.close();
    }
  });
});

const mongoUri = mongoUriFor('The MongoDB realm migration');

if (mongoUri) describe('MongoDB migration', () => {
  const databases = mongoTestDatabases(mongoUri, 'voice-test-identity-realms');
  afterAll(() => databases.dropAll());

  test('places each user in the realm of its oldest membership on connect, and drops the global e-mail index', async () => {
    const database = databases.next();
    const { MongoClient } = await import('mongodb');
    const client = await MongoClient.connect(mongoUri);
    try {
      const db = client.db(database);
      await db.collection('users').createIndex({ email: 1 }, { unique: true, name: 'unique_email' });
      await db.collection<{ _id: string }>('workspaces').insertMany(
        [root, whiteLabel, endCustomer, direct].map((w) => ({
          _id: w.id, name: 'w', plan: 'enterprise', status: 'active', parent_workspace_id: w.parent, created_at: w.created, ...(w.parent === null ? { root: true } : {}),
        })),
      );
      await db.collection<{ _id: string }>('users').insertMany([crossing, rootOnly, nowhere].map((u) => ({ _id: u.id, email: u.email, name: 'n', password_hash: null, created_at: at(5) })));
      await db.collection('members').insertMany(memberships.map((m) => ({ workspace_id: m.workspace, user_id: m.user, role: 'admin', status: 'active', created_at: m.created })));
    } finally {
      await client.close();
    }
    const store = await connectMongoIdentityStore(mongoUri, database);
    try {
      await expectRealms(store);
      await store.close();
      // A second start finds nothing left to do.
      const again = await connectMongoIdentityStore(mongoUri, database);
      expect(await again.getUser(crossing.id)).toMatchObject({ realmId: whiteLabel.id });
      await again.close();
    } catch (error) {
      await store.close().catch(() => undefined);
      throw error;
    }
  });
});
