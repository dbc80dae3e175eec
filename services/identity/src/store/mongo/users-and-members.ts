// Users and memberships in MongoDB; a member change revokes the member's OAuth credentials in the same transaction.
import type { ClientSession } from 'mongodb';
import type { Role } from '@voice/runtime/access';
import { inTransaction, isDuplicateKey } from '@voice/runtime/store/mongo';
import type { Page } from '@voice/runtime/validation';
import type {
  AddMemberOutcome,
  MemberChangeOutcome,
  MemberRecord,
  MembershipRecord,
  MemberState,
  MemberStore,
  UserRecord,
  WorkspaceRecord,
} from '../store.js';
import { storedMembership } from '../mapping/member.js';
import { memberRecord, userDocument, userRecord, workspaceRecord, type MemberDocument } from './documents.js';
import { revokeOAuthCredentialsWhere, type MongoContext } from './context.js';

/** Ends a member-change transaction with an outcome that is not an error to the caller. */
class MemberChangeRefused extends Error {
  constructor(readonly outcome: MemberChangeOutcome) {
    super(outcome.kind);
  }
}

export function mongoMemberStore({ handle, collections }: MongoContext): MemberStore {
  async function createUser(user: UserRecord): Promise<boolean> {
    try {
      await collections.users.insertOne(userDocument(user));
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async function getUser(id: string): Promise<UserRecord | undefined> {
    const doc = await collections.users.findOne({ _id: id });
    return doc ? userRecord(doc) : undefined;
  }

  async function findUserByEmail(realmId: string, email: string): Promise<UserRecord | undefined> {
    const doc = await collections.users.findOne({ realm_id: realmId, email });
    return doc ? userRecord(doc) : undefined;
  }

  async function addMember(membership: Omit<MembershipRecord, 'userId'>, user: UserRecord): Promise<AddMemberOutcome> {
    // A duplicate key is either the membership (already a member) or the e-mail, when another
    // request created the user meanwhile; the second attempt tells them apart.
    for (let attempt = 0; ; attempt++) {
      try {
        return await inTransaction(handle, async (session): Promise<AddMemberOutcome> => {
          const existing = await collections.users.findOne({ realm_id: user.realmId, email: user.email }, { session });
          const owner = existing ?? userDocument(user);
          if (!existing) await collections.users.insertOne(owner, { session });
          const current = await collections.members.findOne({ workspace_id: membership.workspaceId, user_id: owner._id }, { session });
          if (current) return current.status === 'invited' ? { kind: 'added', member: memberRecord(current, owner) } : { kind: 'already_member' };
          const doc = storedMembership({ ...membership, userId: owner._id });
          await collections.members.insertOne(doc, { session });
          return { kind: 'added', member: memberRecord(doc, owner) };
        });
      } catch (error) {
        if (!isDuplicateKey(error) || attempt > 0) throw error;
      }
    }
  }

  async function getMember(workspaceId: string, userId: string): Promise<MemberRecord | undefined> {
    const doc = await collections.members.findOne({ workspace_id: workspaceId, user_id: userId });
    return doc ? (await withUsers([doc]))[0] : undefined;
  }

  async function listMembers(workspaceId: string, page: Page): Promise<{ members: MemberRecord[]; total: number }> {
    const query = { workspace_id: workspaceId };
    const [total, docs] = await Promise.all([
      collections.members.countDocuments(query),
      collections.members.find(query).sort({ created_at: -1, user_id: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { members: await withUsers(docs), total };
  }

  async function changeMember(workspaceId: string, userId: string, expected: MemberState, next: MemberState, revoke: boolean): Promise<MemberChangeOutcome> {
    return memberTransaction(workspaceId, userId, expected, next, async (session) => {
      await collections.members.updateOne({ workspace_id: workspaceId, user_id: userId }, { $set: { role: next.role, status: next.status } }, { session });
      const revokedCredentialIds = revoke ? await revokeMemberCredentials(workspaceId, userId, session) : [];
      const doc = await collections.members.findOne({ workspace_id: workspaceId, user_id: userId }, { session });
      const user = await collections.users.findOne({ _id: userId }, { session });
      return { kind: 'changed', member: doc && user ? memberRecord(doc, user) : undefined, revokedCredentialIds };
    });
  }

  async function removeMember(workspaceId: string, userId: string, expected: MemberState): Promise<MemberChangeOutcome> {
    return memberTransaction(workspaceId, userId, expected, undefined, async (session) => {
      await collections.members.deleteOne({ workspace_id: workspaceId, user_id: userId }, { session });
      return { kind: 'changed', member: undefined, revokedCredentialIds: await revokeMemberCredentials(workspaceId, userId, session) };
    });
  }

  async function activeAccessTokenIds(workspaceId: string, userId: string): Promise<string[]> {
    const docs = await collections.tokens
      .find({ workspace_id: workspaceId, user_id: userId, kind: 'access', status: 'active' }, { projection: { _id: 1 } })
      .sort({ _id: 1 })
      .toArray();
    return docs.map((d) => d._id);
  }

  async function membershipsOf(userId: string): Promise<{ workspace: WorkspaceRecord; role: Role }[]> {
    const docs = await collections.members.find({ user_id: userId, status: 'active' }).sort({ created_at: 1, workspace_id: 1 }).toArray();
    const workspaces = await collections.workspaces.find({ _id: { $in: docs.map((d) => d.workspace_id) }, status: 'active' }).toArray();
    const byId = new Map(workspaces.map((w) => [w._id, workspaceRecord(w)]));
    return docs.flatMap((d) => {
      const workspace = byId.get(d.workspace_id);
      return workspace ? [{ workspace, role: d.role as Role }] : [];
    });
  }

  async function setInitialPassword(userId: string, passwordHash: string): Promise<boolean> {
    const result = await collections.users.updateOne({ _id: userId, password_hash: null }, { $set: { password_hash: passwordHash } });
    return result.modifiedCount === 1;
  }

  async function replacePasswordHash(userId: string, expected: string, passwordHash: string): Promise<boolean> {
    const result = await collections.users.updateOne({ _id: userId, password_hash: expected }, { $set: { password_hash: passwordHash } });
    return result.modifiedCount === 1;
  }

  /**
   * Runs `work` once the member is found in the `expected` state and the change keeps an active
   * owner; `next` undefined is a removal.
   */
  async function memberTransaction(
    workspaceId: string,
    userId: string,
    expected: MemberState,
    next: MemberState | undefined,
    work: (session: ClientSession) => Promise<MemberChangeOutcome>,
  ): Promise<MemberChangeOutcome> {
    try {
      return await inTransaction(handle, async (session) => {
        await collections.workspaces.updateOne({ _id: workspaceId }, { $inc: { members_revision: 1 } }, { session });
        const current = await collections.members.findOne({ workspace_id: workspaceId, user_id: userId }, { session });
        if (!current) throw new MemberChangeRefused({ kind: 'not_found' });
        if (current.role !== expected.role || current.status !== expected.status) throw new MemberChangeRefused({ kind: 'stale' });
        const wasActiveOwner = current.role === 'owner' && current.status === 'active';
        const staysActiveOwner = next?.role === 'owner' && next.status === 'active';
        if (wasActiveOwner && !staysActiveOwner) {
          const others = await collections.members.countDocuments(
            { workspace_id: workspaceId, user_id: { $ne: userId }, role: 'owner', status: 'active' },
            { session, limit: 1 },
          );
          if (others === 0) throw new MemberChangeRefused({ kind: 'last_owner' });
        }
        return work(session);
      });
    } catch (error) {
      if (error instanceof MemberChangeRefused) return error.outcome;
      throw error;
    }
  }

  async function withUsers(docs: MemberDocument[]): Promise<MemberRecord[]> {
    const users = await collections.users.find({ _id: { $in: docs.map((d) => d.user_id) } }).toArray();
    const byId = new Map(users.map((u) => [u._id, u]));
    return docs.flatMap((d) => {
      const user = byId.get(d.user_id);
      return user ? [memberRecord(d, user)] : [];
    });
  }

  function revokeMemberCredentials(workspaceId: string, userId: string, session: ClientSession): Promise<string[]> {
    return revokeOAuthCredentialsWhere(collections, { workspace_id: workspaceId, user_id: userId }, session);
  }

  return { createUser, getUser, findUserByEmail, addMember, getMember, listMembers, changeMember, removeMember, activeAccessTokenIds, membershipsOf, setInitialPassword, replacePasswordHash };
}
