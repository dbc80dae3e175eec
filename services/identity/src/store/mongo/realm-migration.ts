// Places users written before realms (issue 12) in a realm, on every connect until none is left:
// each joins the realm of its oldest membership (the one that created it), the root's without
// any. Memberships in other realms stay but never authenticate (docs/operations.md). Then the
// global unique e-mail index goes, so the same e-mail can exist once per realm.
import type { Collections } from './documents.js';

/** NamespaceNotFound (a new database) and IndexNotFound (dropped by another replica, or never made): nothing to drop. */
const nothingToDrop = new Set([26, 27]);

export async function assignUserRealms(collections: Collections): Promise<void> {
  const { users, members, workspaces } = collections;
  const root = await workspaces.findOne({ root: true });
  for await (const user of users.find({ realm_id: { $exists: false } }, { projection: { _id: 1 } })) {
    const [oldest] = await members.find({ user_id: user._id }).sort({ created_at: 1, workspace_id: 1 }).limit(1).toArray();
    const workspace = oldest ? await workspaces.findOne({ _id: oldest.workspace_id }) : null;
    const realmId = workspace ? (workspace.parent_workspace_id ?? workspace._id) : (root?._id ?? '');
    await users.updateOne({ _id: user._id, realm_id: { $exists: false } }, { $set: { realm_id: realmId } });
  }
  try {
    await users.dropIndex('unique_email');
  } catch (error) {
    if (!nothingToDrop.has((error as { code?: number }).code ?? 0)) throw error;
  }
}
