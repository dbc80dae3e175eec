// One mapping per entity between a record and its stored shape, shared by both adapters: SQLite
// rows and MongoDB documents hold the same fields (MongoDB names the key `_id`). JSON values are
// kept as text, since their keys may hold characters MongoDB treats specially ("." and "$").
import type { JsonObject } from '@bufbuild/protobuf';
import type { AssistantRecord, DocumentRecord, DocumentSource, DocumentStatus, KnowledgeBaseRecord, KnowledgeBaseView, SettingsRecord, VersionAuthor, VersionRecord } from './store.js';

export interface AssistantRow {
  id: string;
  workspace_id: string;
  name: string;
  /** The name lower-cased, for search ignoring case. */
  name_folded: string;
  config: string;
  revision: number;
  created_at: string;
  updated_at: string;
}

export interface VersionRow {
  workspace_id: string;
  assistant_id: string;
  number: number;
  config: string;
  author: string;
  changed_fields: string;
  restored_from: number;
  created_at: string;
}

/** How names are folded for search; the query is folded the same way. */
export const foldName = (text: string): string => text.toLocaleLowerCase('en-US');

export const assistantRowOf = (record: AssistantRecord): AssistantRow => ({
  id: record.id,
  workspace_id: record.workspaceId,
  name: record.name,
  name_folded: foldName(record.name),
  config: JSON.stringify(record.config),
  revision: record.revision,
  created_at: record.createdAt,
  updated_at: record.updatedAt,
});

export const assistantOf = (row: AssistantRow): AssistantRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  config: JSON.parse(row.config) as JsonObject,
  revision: row.revision,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export const versionRowOf = (record: VersionRecord): VersionRow => ({
  workspace_id: record.workspaceId,
  assistant_id: record.assistantId,
  number: record.number,
  config: JSON.stringify(record.config),
  author: JSON.stringify(record.author),
  changed_fields: JSON.stringify(record.changedFields),
  restored_from: record.restoredFrom,
  created_at: record.createdAt,
});

export const versionOf = (row: VersionRow): VersionRecord => ({
  workspaceId: row.workspace_id,
  assistantId: row.assistant_id,
  number: row.number,
  config: JSON.parse(row.config) as JsonObject,
  author: JSON.parse(row.author) as VersionAuthor,
  changedFields: JSON.parse(row.changed_fields) as string[],
  restoredFrom: row.restored_from,
  createdAt: row.created_at,
});

export interface SettingsRow {
  workspace_id: string;
  kind: string;
  value: string;
  revision: number;
  updated_at: string;
}

export const settingsOf = (row: Pick<SettingsRow, 'value' | 'revision' | 'updated_at'>): SettingsRecord => ({
  value: JSON.parse(row.value) as JsonObject,
  revision: row.revision,
  updatedAt: row.updated_at,
});

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
