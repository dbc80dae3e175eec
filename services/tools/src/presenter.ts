// The curated tool every caller sees: secrets masked, times as Timestamps.
import { create } from '@bufbuild/protobuf';
import { toTimestamp } from '@voice/runtime/time';
import { ToolSchema, type Tool } from '@voice/proto/voice/tools/v1/tools';
import type { ToolSecrets } from '@voice/contracts/tool-secrets';
import type { ToolRecord } from './store/store.js';

export const presentTool = (record: ToolRecord, secrets: ToolSecrets): Tool =>
  create(ToolSchema, {
    id: record.id,
    name: record.name,
    description: record.description,
    type: record.type,
    config: secrets.mask(record.type, record.config),
    isActive: record.isActive,
    revision: record.revision,
    createdAt: toTimestamp(record.createdAt),
    updatedAt: toTimestamp(record.updatedAt),
  });
