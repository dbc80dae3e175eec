// A tool's stored form (SQLite's row and MongoDB's document but for the id and the flag's type) and
// its mapping to and from the record.
import type { JsonObject } from '@bufbuild/protobuf';
import type { StoredValues } from '@voice/runtime/store';
import type { ToolType } from '@voice/contracts/tools';
import type { ToolRecord } from '../store.js';

export interface StoredTool<Flag> {
  workspace_id: string;
  name: string;
  description: string;
  type: string;
  /** JSON text in both adapters: config keys may hold characters MongoDB treats specially ("." and "$"). */
  config: string;
  is_active: Flag;
  revision: number;
  created_at: string;
  updated_at: string;
}

export const storedTool = <Flag>(tool: ToolRecord, values: StoredValues<Flag, unknown>): StoredTool<Flag> => ({
  workspace_id: tool.workspaceId,
  name: tool.name,
  description: tool.description,
  type: tool.type,
  config: JSON.stringify(tool.config),
  is_active: values.flag(tool.isActive),
  revision: tool.revision,
  created_at: tool.createdAt,
  updated_at: tool.updatedAt,
});

export const toolFromStored = <Flag>(id: string, stored: StoredTool<Flag>, values: StoredValues<Flag, unknown>): ToolRecord => ({
  id,
  workspaceId: stored.workspace_id,
  name: stored.name,
  description: stored.description,
  type: stored.type as ToolType,
  config: JSON.parse(stored.config) as JsonObject,
  isActive: values.isSet(stored.is_active),
  revision: stored.revision,
  createdAt: stored.created_at,
  updatedAt: stored.updated_at,
});
