// A knowledge document between its record and the stored shape both adapters keep (SQLite rows, MongoDB documents
// with the key as `_id`); JSON values as text, since their keys may hold "." and "$".
import type { DocumentRecord, DocumentSource, DocumentStatus } from '../store.js';

export interface DocumentRow {
  id: string;
  workspace_id: string;
  knowledge_base_id: string;
  name: string;
  source: string;
  url: string | null;
  content_type: string;
  size_bytes: number;
  max_bytes: number;
  status: string;
  failure_reason: string | null;
  chunk_count: number;
  created_at: string;
  updated_at: string;
}

export const documentRowOf = (record: DocumentRecord): DocumentRow => ({
  id: record.id,
  workspace_id: record.workspaceId,
  knowledge_base_id: record.knowledgeBaseId,
  name: record.name,
  source: record.source,
  url: record.url,
  content_type: record.contentType,
  size_bytes: record.sizeBytes,
  max_bytes: record.maxBytes,
  status: record.status,
  failure_reason: record.failureReason,
  chunk_count: record.chunkCount,
  created_at: record.createdAt,
  updated_at: record.updatedAt,
});

export const documentOf = (row: DocumentRow): DocumentRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  knowledgeBaseId: row.knowledge_base_id,
  name: row.name,
  source: row.source as DocumentSource,
  url: row.url,
  contentType: row.content_type,
  sizeBytes: row.size_bytes,
  maxBytes: row.max_bytes,
  status: row.status as DocumentStatus,
  failureReason: row.failure_reason,
  chunkCount: row.chunk_count,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
