// A knowledge base between its record and the stored shape both adapters keep (SQLite rows, MongoDB documents
// with the key as `_id`); JSON values as text, since their keys may hold "." and "$".
import type { KnowledgeBaseRecord, KnowledgeBaseView } from '../store.js';

export interface KnowledgeBaseRow {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export const knowledgeBaseRowOf = (record: KnowledgeBaseRecord): KnowledgeBaseRow => ({
  id: record.id,
  workspace_id: record.workspaceId,
  name: record.name,
  description: record.description,
  created_at: record.createdAt,
  updated_at: record.updatedAt,
});

export const knowledgeBaseOf = (row: KnowledgeBaseRow, stats: { documentCount: number; sizeBytes: number }): KnowledgeBaseView => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  description: row.description,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  documentCount: stats.documentCount,
  sizeBytes: stats.sizeBytes,
});
