// The suppression list in MongoDB: a unique index keeps a number once per workspace.
import { isDuplicateKey } from '@voice/runtime/store/mongo';
import type { Page } from '@voice/runtime/validation';
import type { SuppressionRecord, SuppressionStore } from '../store.js';
import { suppressionDocument, suppressionRecord } from './documents.js';
import { findPage, type MongoContext } from './part.js';

/** Numbers per query: a bounded `$in` keeps each query small on every MongoDB-compatible server. */
const mongoChunk = 1000;

export function mongoSuppressionStore({ collections }: MongoContext): SuppressionStore {
  return {
    async insertSuppression(entry: SuppressionRecord): Promise<{ kind: 'created'; entry: SuppressionRecord } | { kind: 'exists' }> {
      try {
        await collections.suppressions.insertOne(suppressionDocument(entry));
        return { kind: 'created', entry };
      } catch (error) {
        if (isDuplicateKey(error)) return { kind: 'exists' };
        throw error;
      }
    },

    async isSuppressed(workspaceId: string, number: string): Promise<boolean> {
      return (await collections.suppressions.countDocuments({ workspace_id: workspaceId, number }, { limit: 1 })) > 0;
    },

    async suppressedAmong(workspaceId: string, numbers: readonly string[]): Promise<string[]> {
      const found = new Set<string>();
      for (let start = 0; start < numbers.length; start += mongoChunk) {
        const chunk = [...new Set(numbers.slice(start, start + mongoChunk))];
        const docs = await collections.suppressions.find({ workspace_id: workspaceId, number: { $in: chunk } }, { projection: { number: 1 } }).toArray();
        for (const doc of docs) found.add(doc.number);
      }
      return [...found];
    },

    async listSuppressions(workspaceId: string, page: Page): Promise<{ entries: SuppressionRecord[]; total: number }> {
      const { docs, total } = await findPage(collections.suppressions, { workspace_id: workspaceId }, page);
      return { entries: docs.map(suppressionRecord), total };
    },

    async deleteSuppression(workspaceId: string, id: string): Promise<boolean> {
      return (await collections.suppressions.deleteOne({ _id: id, workspace_id: workspaceId })).deletedCount === 1;
    },
  };
}
