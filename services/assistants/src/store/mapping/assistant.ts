// An assistant between its record and the stored shape both adapters keep (SQLite rows, MongoDB documents
// with the key as `_id`); JSON values as text, since their keys may hold "." and "$".
import type { JsonObject } from '@bufbuild/protobuf';
import type { AssistantRecord } from '../store.js';

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
