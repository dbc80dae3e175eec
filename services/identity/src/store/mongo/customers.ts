// A platform's customers in MongoDB: registration in one transaction, and the owners of the
// workspaces under a platform, searched by e-mail or name.
import type { Role } from '@voice/runtime/access';
import { inTransaction, isDuplicateKey } from '@voice/runtime/store/mongo';
import type { Page } from '@voice/runtime/validation';
import type { CustomerRecord, CustomerStore, MembershipRecord, RegisterCustomerOutcome, UserRecord, WorkspaceRecord } from '../store.js';
import { storedMembership } from '../mapping/member.js';
import { userDocument, userRecord, workspaceDocument, workspaceRecord, type UserDocument } from './documents.js';
import type { MongoContext } from './context.js';

/** A regular expression matching `text` literally. */
const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Listing {
  total: { n: number }[];
  page: { _id: string; user: UserDocument }[];
}

export function mongoCustomerStore({ handle, collections }: MongoContext): CustomerStore {
  async function registerCustomer(user: UserRecord, workspace: WorkspaceRecord, membership: MembershipRecord): Promise<RegisterCustomerOutcome> {
    // A duplicate key is a concurrent registration of the e-mail that committed first: the second
    // attempt finds its user and invites it.
    for (let attempt = 0; ; attempt++) {
      try {
        return await inTransaction(handle, async (session): Promise<RegisterCustomerOutcome> => {
          const existing = await collections.users.findOne({ realm_id: user.realmId, email: user.email }, { session });
          if (!existing) await collections.users.insertOne(userDocument(user), { session });
          await collections.workspaces.insertOne(workspaceDocument(workspace), { session });
          const owner: MembershipRecord = existing ? { ...membership, userId: existing._id, status: 'invited', invitedName: user.name } : membership;
          await collections.members.insertOne(storedMembership(owner), { session });
          return existing ? { kind: 'invited', userId: existing._id } : { kind: 'registered' };
        });
      } catch (error) {
        if (!isDuplicateKey(error) || attempt > 0) throw error;
      }
    }
  }

  async function listCustomers(platformWorkspaceId: string, query: string, page: Page): Promise<{ customers: CustomerRecord[]; total: number }> {
    const search = query ? { $regex: literal(query), $options: 'i' } : undefined;
    const [listing] = await collections.workspaces
      .aggregate<Listing>([
        { $match: { parent_workspace_id: platformWorkspaceId } },
        { $lookup: { from: collections.members.collectionName, localField: '_id', foreignField: 'workspace_id', as: 'member' } },
        { $unwind: '$member' },
        { $match: { 'member.role': 'owner', 'member.status': { $ne: 'invited' } } },
        { $group: { _id: '$member.user_id', since: { $min: '$created_at' } } },
        { $lookup: { from: collections.users.collectionName, localField: '_id', foreignField: '_id', as: 'user' } },
        { $unwind: '$user' },
        ...(search ? [{ $match: { $or: [{ 'user.email': search }, { 'user.name': search }] } }] : []),
        { $sort: { since: -1, _id: -1 } },
        { $facet: { total: [{ $count: 'n' }], page: [{ $skip: page.offset }, { $limit: page.limit }] } },
      ])
      .toArray();
    const users = listing?.page.map((entry) => entry.user) ?? [];
    return { customers: await withWorkspaces(platformWorkspaceId, users), total: listing?.total[0]?.n ?? 0 };
  }

  async function getCustomer(platformWorkspaceId: string, userId: string): Promise<CustomerRecord | undefined> {
    const user = await collections.users.findOne({ _id: userId });
    return user ? (await withWorkspaces(platformWorkspaceId, [user]))[0] : undefined;
  }

  /** The users with their workspaces under the platform, oldest first; users without any are left out. */
  async function withWorkspaces(platformWorkspaceId: string, users: UserDocument[]): Promise<CustomerRecord[]> {
    if (users.length === 0) return [];
    const owned = await collections.members.find({ user_id: { $in: users.map((u) => u._id) }, role: 'owner', status: { $ne: 'invited' } }).toArray();
    const workspaces = await collections.workspaces
      .find({ _id: { $in: owned.map((m) => m.workspace_id) }, parent_workspace_id: platformWorkspaceId })
      .sort({ created_at: 1, _id: 1 })
      .toArray();
    return users.flatMap((user) => {
      const roles = new Map(owned.filter((m) => m.user_id === user._id).map((m) => [m.workspace_id, m.role as Role]));
      const mine = workspaces.flatMap((w) => {
        const role = roles.get(w._id);
        return role ? [{ workspace: workspaceRecord(w), role }] : [];
      });
      return mine.length > 0 ? [{ user: userRecord(user), workspaces: mine }] : [];
    });
  }

  return { registerCustomer, listCustomers, getCustomer };
}
