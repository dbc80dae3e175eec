// Phone numbers in MongoDB: a unique index keeps a number with one workspace across the platform.
import { definedFields, isDuplicateKey, type Page } from '@voice/runtime';
import type { NumberStore } from '../composed.js';
import type { NumberChanges, NumberRecord } from '../store.js';
import { numberDocument, numberRecord } from './documents.js';
import { findPage, MongoStorePart } from './part.js';

export class MongoNumberStore extends MongoStorePart implements NumberStore {
  async insertNumber(number: NumberRecord): Promise<{ kind: 'created'; number: NumberRecord } | { kind: 'number_taken' }> {
    try {
      await this.collections.numbers.insertOne(numberDocument(number));
      return { kind: 'created', number };
    } catch (error) {
      if (isDuplicateKey(error)) return { kind: 'number_taken' };
      throw error;
    }
  }

  async getNumber(workspaceId: string, id: string): Promise<NumberRecord | undefined> {
    const doc = await this.collections.numbers.findOne({ _id: id, workspace_id: workspaceId });
    return doc ? numberRecord(doc) : undefined;
  }

  async listNumbers(workspaceId: string, page: Page): Promise<{ numbers: NumberRecord[]; total: number }> {
    const { docs, total } = await findPage(this.collections.numbers, { workspace_id: workspaceId }, page);
    return { numbers: docs.map(numberRecord), total };
  }

  async heldNumbers(numbers: string[]): Promise<Set<string>> {
    const docs = await this.collections.numbers.find({ number: { $in: numbers } }, { projection: { number: 1 } }).toArray();
    return new Set(docs.map((doc) => doc.number));
  }

  async updateNumber(workspaceId: string, id: string, changes: NumberChanges, now: string): Promise<NumberRecord | undefined> {
    const set = definedFields({
      sms_outbound_enabled: changes.smsOutboundEnabled,
      name: changes.name,
      assistant_id: changes.assistantId,
      a2p_campaign_id: changes.a2pCampaignId,
      updated_at: now,
    });
    const updated = await this.collections.numbers.findOneAndUpdate({ _id: id, workspace_id: workspaceId }, { $set: set }, { returnDocument: 'after' });
    return updated ? numberRecord(updated) : undefined;
  }

  async deleteNumber(workspaceId: string, id: string): Promise<boolean> {
    return (await this.collections.numbers.deleteOne({ _id: id, workspace_id: workspaceId })).deletedCount === 1;
  }
}
