// A suppression entry's stored form (SQLite's row and MongoDB's document but for the id) and its
// mapping to and from the record.
import type { SuppressionRecord } from '../store.js';

export interface StoredSuppression {
  workspace_id: string;
  number: string;
  reason: string;
  created_at: string;
}

export const storedSuppression = (s: SuppressionRecord): StoredSuppression => ({
  workspace_id: s.workspaceId,
  number: s.number,
  reason: s.reason,
  created_at: s.createdAt,
});

export const suppressionFromStored = (id: string, s: StoredSuppression): SuppressionRecord => ({
  id,
  workspaceId: s.workspace_id,
  number: s.number,
  reason: s.reason,
  createdAt: s.created_at,
});
