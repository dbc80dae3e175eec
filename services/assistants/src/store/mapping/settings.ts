// A workspace setting between its record and the stored shape both adapters keep (SQLite rows, MongoDB documents
// with the key as `_id`); JSON values as text, since their keys may hold "." and "$".
import type { JsonObject } from '@bufbuild/protobuf';
import type { SettingsRecord } from '../store.js';

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
