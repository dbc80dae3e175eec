// The curated assistant and version every caller sees: secrets masked, times as Timestamps.
import { create } from '@bufbuild/protobuf';
import { toTimestamp } from '@voice/runtime/time';
import { AssistantSchema, type Assistant } from '@voice/proto/voice/assistants/v1/assistants';
import { AssistantVersionSchema, type AssistantVersion } from '@voice/proto/voice/assistants/v1/versions';
import type { AssistantSecrets } from './domain/secrets.js';
import type { AssistantRecord, VersionRecord } from './store/store.js';

export const presentAssistant = (record: AssistantRecord, secrets: AssistantSecrets): Assistant =>
  create(AssistantSchema, {
    id: record.id,
    config: secrets.mask(record.config),
    revision: record.revision,
    createdAt: toTimestamp(record.createdAt),
    updatedAt: toTimestamp(record.updatedAt),
  });

export const presentVersion = (record: VersionRecord, secrets: AssistantSecrets): AssistantVersion =>
  create(AssistantVersionSchema, {
    number: record.number,
    config: secrets.mask(record.config),
    createdBy: record.author,
    createdAt: toTimestamp(record.createdAt),
    changedFields: record.changedFields,
    restoredFrom: record.restoredFrom,
  });
