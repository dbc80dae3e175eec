// Phone numbers in MongoDB: a unique index keeps a number with one workspace across the platform;
// a bought number's fees are captured through usage events written in the transaction that records them.
import type { NewOutboxEvent } from '@voice/runtime/events';
import { inTransaction, isDuplicateKey } from '@voice/runtime/store/mongo';
import { definedFields, type Page } from '@voice/runtime/validation';
import type { NumberChanges, NumberRecord, NumberStore, RenewalStore } from '../store.js';
import { numberDocument, numberRecord } from './documents.js';
import { findPage, type MongoContext } from './part.js';

export function mongoNumberStore({ handle, collections, outbox }: MongoContext): NumberStore & RenewalStore {
  return {
    async insertNumber(number: NumberRecord, usageEvent?: NewOutboxEvent): Promise<{ kind: 'created'; number: NumberRecord } | { kind: 'number_taken' }> {
      try {
        await inTransaction(handle, async (session) => {
          await collections.numbers.insertOne(numberDocument(number), { session });
          if (usageEvent) await outbox.add(usageEvent, session);
        });
        return { kind: 'created', number };
      } catch (error) {
        if (isDuplicateKey(error)) return { kind: 'number_taken' };
        throw error;
      }
    },

    async getNumber(workspaceId: string, id: string): Promise<NumberRecord | undefined> {
      const doc = await collections.numbers.findOne({ _id: id, workspace_id: workspaceId });
      return doc ? numberRecord(doc) : undefined;
    },

    async findNumber(workspaceId: string, number: string): Promise<NumberRecord | undefined> {
      const doc = await collections.numbers.findOne({ number, workspace_id: workspaceId });
      return doc ? numberRecord(doc) : undefined;
    },

    async listNumbers(workspaceId: string, page: Page, assistantId?: string): Promise<{ numbers: NumberRecord[]; total: number }> {
      const filter = assistantId === undefined ? { workspace_id: workspaceId } : { workspace_id: workspaceId, assistant_id: assistantId };
      const { docs, total } = await findPage(collections.numbers, filter, page);
      return { numbers: docs.map(numberRecord), total };
    },

    async numberHeldAs(number: string): Promise<NumberRecord | undefined> {
      const doc = await collections.numbers.findOne({ number });
      return doc ? numberRecord(doc) : undefined;
    },

    async heldNumbers(numbers: string[]): Promise<Set<string>> {
      const docs = await collections.numbers.find({ number: { $in: numbers } }, { projection: { number: 1 } }).toArray();
      return new Set(docs.map((doc) => doc.number));
    },

    async updateNumber(workspaceId: string, id: string, changes: NumberChanges, now: string): Promise<NumberRecord | undefined> {
      const set = definedFields({
        sms_outbound_enabled: changes.smsOutboundEnabled,
        name: changes.name,
        assistant_id: changes.assistantId,
        a2p_campaign_id: changes.a2pCampaignId,
        updated_at: now,
      });
      const updated = await collections.numbers.findOneAndUpdate({ _id: id, workspace_id: workspaceId }, { $set: set }, { returnDocument: 'after' });
      return updated ? numberRecord(updated) : undefined;
    },

    async deleteNumber(workspaceId: string, id: string): Promise<boolean> {
      return (await collections.numbers.deleteOne({ _id: id, workspace_id: workspaceId })).deletedCount === 1;
    },

    async dueRenewals(now: string, limit: number): Promise<NumberRecord[]> {
      const docs = await collections.numbers.find({ renews_at: { $type: 'string', $lte: now } }).sort({ renews_at: 1, _id: 1 }).limit(limit).toArray();
      return docs.map(numberRecord);
    },

    async renewNumber(id: string, dueAt: string, nextAt: string, usageEvent: NewOutboxEvent | undefined, now: string): Promise<NumberRecord | undefined> {
      return inTransaction(handle, async (session) => {
        const renewed = await collections.numbers.findOneAndUpdate(
          { _id: id, renews_at: dueAt },
          { $set: { renews_at: nextAt, past_due_since: null, updated_at: now } },
          { session, returnDocument: 'after' },
        );
        if (!renewed) return undefined;
        if (usageEvent) await outbox.add(usageEvent, session);
        return numberRecord(renewed);
      });
    },

    async markPastDue(id: string, dueAt: string, now: string, eventOf: (number: NumberRecord) => NewOutboxEvent): Promise<NumberRecord | undefined> {
      return inTransaction(handle, async (session) => {
        const marked = await collections.numbers.findOneAndUpdate(
          { _id: id, renews_at: dueAt, past_due_since: null },
          { $set: { past_due_since: now, updated_at: now } },
          { returnDocument: 'after', session },
        );
        if (!marked) return undefined;
        const number = numberRecord(marked);
        await outbox.add(eventOf(number), session);
        return number;
      });
    },

    async deleteUnpaidNumber(id: string, dueAt: string, eventOf: (number: NumberRecord) => NewOutboxEvent): Promise<boolean> {
      return inTransaction(handle, async (session) => {
        const deleted = await collections.numbers.findOneAndDelete({ _id: id, renews_at: dueAt, past_due_since: { $type: 'string' } }, { session });
        if (!deleted) return false;
        await outbox.add(eventOf(numberRecord(deleted)), session);
        return true;
      });
    },
  };
}
