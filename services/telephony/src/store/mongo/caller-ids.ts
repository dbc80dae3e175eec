// Caller IDs in MongoDB: a unique index keeps one caller ID per number and workspace (a failed or
// expired one is replaced in the transaction that adds the new one); checked codes apply only to
// the state read (a conditional update).
import type { NewOutboxEvent } from '@voice/runtime/events';
import { inTransaction, isDuplicateKey } from '@voice/runtime/store/mongo';
import type { Page } from '@voice/runtime/validation';
import { storedCodeOutcome } from '../mapping/caller-id.js';
import { isReplaceableCallerId } from '../rules.js';
import type { CallerIdRecord, CallerIdStore, CodeOutcome } from '../store.js';
import { callerIdDocument, callerIdRecord } from './documents.js';
import { findPage, type MongoContext } from './part.js';

export function mongoCallerIdStore({ handle, collections, outbox }: MongoContext): CallerIdStore {
  const { callerIds } = collections;

  return {
    async insertCallerId(callerId: CallerIdRecord) {
      try {
        return await inTransaction(handle, async (session): Promise<{ kind: 'created' } | { kind: 'exists' }> => {
          const existing = await callerIds.findOne({ workspace_id: callerId.workspaceId, phone_number: callerId.phoneNumber }, { session });
          if (existing) {
            if (!isReplaceableCallerId(callerIdRecord(existing), callerId.createdAt)) return { kind: 'exists' };
            await callerIds.deleteOne({ _id: existing._id }, { session });
          }
          await callerIds.insertOne(callerIdDocument(callerId), { session });
          return { kind: 'created' };
        });
      } catch (error) {
        if (isDuplicateKey(error)) return { kind: 'exists' };
        throw error;
      }
    },

    async getCallerId(workspaceId: string, id: string) {
      const doc = await callerIds.findOne({ _id: id, workspace_id: workspaceId });
      return doc ? callerIdRecord(doc) : undefined;
    },

    async listCallerIds(workspaceId: string, page: Page) {
      const { docs, total } = await findPage(callerIds, { workspace_id: workspaceId }, page);
      return { callerIds: docs.map(callerIdRecord), total };
    },

    async deleteCallerId(workspaceId: string, id: string) {
      return (await callerIds.deleteOne({ _id: id, workspace_id: workspaceId })).deletedCount === 1;
    },

    async recordCodeSent(id: string, usageEvent: NewOutboxEvent | undefined, now: string) {
      return inTransaction(handle, async (session) => {
        if ((await callerIds.updateOne({ _id: id }, { $set: { updated_at: now } }, { session })).matchedCount !== 1) return false;
        if (usageEvent) await outbox.add(usageEvent, session);
        return true;
      });
    },

    async applyCode(workspaceId: string, id: string, seenAttempts: number, outcome: CodeOutcome, now: string) {
      const applied = await callerIds.findOneAndUpdate(
        { _id: id, workspace_id: workspaceId, status: 'pending', attempts: seenAttempts },
        { $set: storedCodeOutcome({ attempts: seenAttempts }, outcome, now) },
        { returnDocument: 'after' },
      );
      return applied ? callerIdRecord(applied) : undefined;
    },

    async pruneUnverifiedCallerIds(before: string, limit: number) {
      const unverified = { $or: [{ status: 'failed', updated_at: { $lt: before } }, { status: 'pending', code_expires_at: { $lt: before } }] };
      const ids = (await callerIds.find(unverified, { projection: { _id: 1 } }).sort({ updated_at: 1, _id: 1 }).limit(limit).toArray()).map((doc) => doc._id);
      if (ids.length === 0) return 0;
      return (await callerIds.deleteMany({ _id: { $in: ids }, ...unverified })).deletedCount;
    },

    async verifiedCallerId(workspaceId: string, phoneNumber: string) {
      const doc = await callerIds.findOne({ workspace_id: workspaceId, phone_number: phoneNumber, status: 'verified' });
      return doc ? callerIdRecord(doc) : undefined;
    },
  };
}
