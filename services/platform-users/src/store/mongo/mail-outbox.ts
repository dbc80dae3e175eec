// The mail outbox in MongoDB.
import { deleteBatch, inTransaction } from '@voice/runtime/store/mongo';
import { storedNewMail } from '../mapping/mail.js';
import { mailOf } from './documents.js';
import type { Filter } from 'mongodb';
import type { Page } from '@voice/runtime/validation';
import type { MailDocument } from './documents.js';
import type { MailOutboxStore, MailRecord, NewMail, WorkspaceMailFilter } from '../store.js';
import type { MongoContext } from './context.js';

export function mongoMailOutboxStore({ handle, collections }: MongoContext): MailOutboxStore {
  async function queueMail(mails: NewMail[]): Promise<number> {
    return inTransaction(handle, async (session) => {
      let queued = 0;
      for (const mail of mails) {
        const written = await collections.mail.updateOne({ _id: mail.id }, { $setOnInsert: { to: mail.to, ...storedNewMail(mail) } }, { upsert: true, session });
        queued += written.upsertedCount;
      }
      return queued;
    });
  }

  async function dueMail(now: string, limit: number): Promise<MailRecord[]> {
    const docs = await collections.mail
      .find({ sent_at: null, next_attempt_at: { $lte: now } })
      .sort({ next_attempt_at: 1, created_at: 1 })
      .limit(limit)
      .toArray();
    return docs.map(mailOf);
  }

  async function leaseMail(id: string, dueAt: string, leaseUntil: string): Promise<boolean> {
    const result = await collections.mail.updateOne({ _id: id, sent_at: null, next_attempt_at: dueAt }, { $set: { next_attempt_at: leaseUntil } });
    return result.modifiedCount === 1;
  }

  async function markMailSent(id: string, at: string): Promise<void> {
    await collections.mail.updateOne({ _id: id }, { $set: { sent_at: at, next_attempt_at: null, sealed_text: null, sealed_html: null } });
  }

  async function markMailFailed(id: string, error: string, nextAttemptAt: string | null): Promise<void> {
    const wipe = nextAttemptAt === null ? { sealed_text: null, sealed_html: null } : {};
    await collections.mail.updateOne(
      { _id: id, sent_at: null },
      { $inc: { attempts: 1 }, $set: { last_error: error, next_attempt_at: nextAttemptAt, ...wipe } },
    );
  }

  async function pruneFinishedMail(before: string, limit: number): Promise<number> {
    return deleteBatch(
      collections.mail,
      { next_attempt_at: null, workspace_id: null, created_at: { $lt: before }, $or: [{ sent_at: null }, { sent_at: { $lt: before } }] },
      { created_at: 1 },
      limit,
    );
  }

  async function getMail(id: string): Promise<MailRecord | undefined> {
    const doc = await collections.mail.findOne({ _id: id });
    return doc ? mailOf(doc) : undefined;
  }

  async function listWorkspaceMail(workspaceId: string, filter: WorkspaceMailFilter, page: Page): Promise<{ mails: MailRecord[]; total: number }> {
    const query: Filter<MailDocument> = { workspace_id: workspaceId };
    if (filter.address !== undefined) query.$or = [{ to: filter.address }, { from_address: filter.address }];
    if (filter.createdFrom !== undefined || filter.createdTo !== undefined) {
      query.created_at = { ...(filter.createdFrom === undefined ? {} : { $gte: filter.createdFrom }), ...(filter.createdTo === undefined ? {} : { $lt: filter.createdTo }) };
    }
    const [total, docs] = await Promise.all([
      collections.mail.countDocuments(query),
      collections.mail.find(query).sort({ created_at: -1, _id: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { mails: docs.map(mailOf), total };
  }

  async function getWorkspaceMail(workspaceId: string, id: string): Promise<MailRecord | undefined> {
    const doc = await collections.mail.findOne({ _id: id, workspace_id: workspaceId });
    return doc ? mailOf(doc) : undefined;
  }

  return { dueMail, leaseMail, markMailSent, markMailFailed, pruneFinishedMail, getMail, queueMail, listWorkspaceMail, getWorkspaceMail };
}
