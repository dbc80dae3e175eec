// Invitations, each written with its e-mail in MongoDB.
import { inTransaction } from '@voice/runtime/store/mongo';
import { mongoValues } from '@voice/runtime/store';
import { storedInvitation } from '../mapping/invitation.js';
import { storedNewMail } from '../mapping/mail.js';
import { invitationOf } from './documents.js';
import type { InvitationRecord, InvitationStatus, InvitationStore, NewMail } from '../store.js';
import type { MongoContext } from './context.js';

export function mongoInvitationStore({ handle, collections }: MongoContext): InvitationStore {
  async function insertInvitationWithMail(invitation: InvitationRecord, mail: NewMail): Promise<void> {
    await inTransaction(handle, async (session) => {
      await collections.invitations.insertOne({ _id: invitation.id, ...storedInvitation(invitation, mongoValues) }, { session });
      await collections.mail.insertOne({ _id: mail.id, to: mail.to, ...storedNewMail(mail) }, { session });
    });
  }

  async function invitationStatuses(userIds: string[]): Promise<Map<string, InvitationStatus>> {
    if (userIds.length === 0) return new Map();
    const docs = await collections.invitations
      .find({ user_id: { $in: userIds }, workspace_id: { $in: [null] } }, { projection: { user_id: 1, accepted_at: 1 } })
      .toArray();
    const statuses = new Map<string, InvitationStatus>();
    for (const doc of docs) {
      if (statuses.get(doc.user_id) !== 'accepted') statuses.set(doc.user_id, doc.accepted_at ? 'accepted' : 'pending');
    }
    return statuses;
  }

  async function findInvitationByTokenHash(tokenHash: string): Promise<InvitationRecord | undefined> {
    const doc = await collections.invitations.findOne({ token_hash: tokenHash });
    return doc ? invitationOf(doc) : undefined;
  }

  async function markInvitationAccepted(id: string, at: string): Promise<boolean> {
    const result = await collections.invitations.updateOne({ _id: id, accepted_at: null }, { $set: { accepted_at: at } });
    return result.modifiedCount === 1;
  }

  return { insertInvitationWithMail, invitationStatuses, findInvitationByTokenHash, markInvitationAccepted };
}
