// E-mail senders in MongoDB: a unique index keeps one sender per workspace and address.
import { inTransaction, isDuplicateKey } from '@voice/runtime/store/mongo';
import type { Page } from '@voice/runtime/validation';
import { storedEmailSender } from '../mapping/email-sender.js';
import { storedNewMail } from '../mapping/mail.js';
import { emailSenderOf } from './documents.js';
import type { EmailSenderRecord, EmailSenderStore, NewMail } from '../store.js';
import type { MongoContext } from './context.js';

export function mongoEmailSenderStore({ handle, collections }: MongoContext): EmailSenderStore {
  const senders = collections.senders;

  async function insertSenderWithMail(record: EmailSenderRecord, mail: NewMail): Promise<'created' | 'address_taken'> {
    try {
      await inTransaction(handle, async (session) => {
        await senders.insertOne({ _id: record.id, ...storedEmailSender(record) }, { session });
        await collections.mail.insertOne({ _id: mail.id, to: mail.to, ...storedNewMail(mail) }, { session });
      });
      return 'created';
    } catch (error) {
      if (isDuplicateKey(error)) return 'address_taken';
      throw error;
    }
  }

  async function listSenders(workspaceId: string, page: Page): Promise<{ senders: EmailSenderRecord[]; total: number }> {
    const [total, docs] = await Promise.all([
      senders.countDocuments({ workspace_id: workspaceId }),
      senders.find({ workspace_id: workspaceId }).sort({ created_at: 1, _id: 1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { senders: docs.map(emailSenderOf), total };
  }

  async function getSender(workspaceId: string, id: string): Promise<EmailSenderRecord | undefined> {
    const doc = await senders.findOne({ _id: id, workspace_id: workspaceId });
    return doc ? emailSenderOf(doc) : undefined;
  }

  async function getSenderById(id: string): Promise<EmailSenderRecord | undefined> {
    const doc = await senders.findOne({ _id: id });
    return doc ? emailSenderOf(doc) : undefined;
  }

  async function deleteSender(workspaceId: string, id: string): Promise<boolean> {
    return (await senders.deleteOne({ _id: id, workspace_id: workspaceId })).deletedCount === 1;
  }

  async function verifySender(id: string, confirmationHash: string, at: string): Promise<EmailSenderRecord | undefined> {
    const doc = await senders.findOneAndUpdate(
      { _id: id, status: 'pending', confirmation_hash: confirmationHash },
      { $set: { status: 'verified', confirmation_hash: null, verified_at: at } },
      { returnDocument: 'after' },
    );
    return doc ? emailSenderOf(doc) : undefined;
  }

  return { insertSenderWithMail, listSenders, getSender, getSenderById, deleteSender, verifySender };
}
