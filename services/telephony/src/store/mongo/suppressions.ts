// The suppression list in MongoDB: a unique index keeps a number once per workspace.
import { isDuplicateKey } from '@voice/runtime/store/mongo';
import type { Page } from '@voice/runtime/validation';
import type { SuppressionRecord, SuppressionStore } from '../store.js';
import { suppressionDocument, suppressionRecord } from './documents.js';
import { findPage, type MongoContext } from './part.js';

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

    async listSuppressions(workspaceId: string, page: Page): Promise<{ entries: SuppressionRecord[]; total: number }> {
      const { docs, total } = await findPage(collections.suppressions, { workspace_id: workspaceId }, page);
      return { entries: docs.map(suppressionRecord), total };
    },

    async deleteSuppression(workspaceId: string, id: string): Promise<boolean> {
      return (await collections.suppressions.deleteOne({ _id: id, workspace_id: workspaceId })).deletedCount === 1;
    },
  };
}
