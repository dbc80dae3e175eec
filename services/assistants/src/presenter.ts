// The curated assistants, versions, knowledge bases and documents every caller sees: secrets
// masked, times as Timestamps.
import { create } from '@bufbuild/protobuf';
import { toTimestamp } from '@voice/runtime/time';
import { AssistantSchema, type Assistant } from '@voice/proto/voice/assistants/v1/assistants';
import { AssistantVersionSchema, type AssistantVersion } from '@voice/proto/voice/assistants/v1/versions';
import type { AssistantSecrets } from './domain/secrets.js';
import { DocumentSchema, KnowledgeBaseSchema, type Document, type KnowledgeBase } from '@voice/proto/voice/assistants/v1/knowledge';
import type { AssistantRecord, DocumentRecord, KnowledgeBaseView, VersionRecord } from './store/store.js';

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

export const presentKnowledgeBase = (view: KnowledgeBaseView): KnowledgeBase =>
  create(KnowledgeBaseSchema, {
    id: view.id,
    name: view.name,
    description: view.description,
    documentCount: view.documentCount,
    sizeBytes: BigInt(view.sizeBytes),
    createdAt: toTimestamp(view.createdAt),
    updatedAt: toTimestamp(view.updatedAt),
  });

export const presentDocument = (record: DocumentRecord): Document =>
  create(DocumentSchema, {
    id: record.id,
    knowledgeBaseId: record.knowledgeBaseId,
    name: record.name,
    source: record.source,
    url: record.url ?? '',
    contentType: record.contentType,
    sizeBytes: BigInt(record.sizeBytes),
    status: record.status,
    failureReason: record.failureReason ?? '',
    chunkCount: record.chunkCount,
    createdAt: toTimestamp(record.createdAt),
    updatedAt: toTimestamp(record.updatedAt),
  });
