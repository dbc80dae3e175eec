// An assistant version between its record and the stored shape both adapters keep (SQLite rows, MongoDB documents
// with the key as `_id`); JSON values as text, since their keys may hold "." and "$".
import type { JsonObject } from '@bufbuild/protobuf';
import type { VersionAuthor, VersionRecord } from '../store.js';

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
