// The assistants service's persistence, in its own words, as narrow parts: each consumer takes
// the part it uses. The SQLite and MongoDB adapters implement every part, and one contract suite
// (test/store.contract.ts) holds them to the same behaviour.
import type { JsonObject } from '@bufbuild/protobuf';
import { claimBinding, type IdempotencyClaim } from '@voice/runtime/idempotency';
import type { Page } from '@voice/runtime/validation';

export interface AssistantRecord {
  id: string;
  workspaceId: string;
  /** Also inside config; kept apart for search by name. */
  name: string;
  /** The complete, validated configuration with every secret sealed. */
  config: JsonObject;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

export interface VersionAuthor {
  type: string;
  id: string;
  name: string;
}

/** An immutable snapshot of an assistant's configuration, written with every change. */
export interface VersionRecord {
  workspaceId: string;
  assistantId: string;
  /** Equals the assistant's revision it was written with. */
  number: number;
  config: JsonObject;
  author: VersionAuthor;
  /** Field paths that differ from the version before. */
  changedFields: string[];
  /** The version this one restored; 0 for a create or an update. */
  restoredFrom: number;
  createdAt: string;
}

export type { IdempotencyClaim };

export type CreateOutcome =
  | { kind: 'created'; assistant: AssistantRecord }
  | { kind: 'replayed'; assistant: AssistantRecord }
  | { kind: 'key_reused' };

export type UpdateOutcome = { kind: 'updated'; assistant: AssistantRecord } | { kind: 'not_found' } | { kind: 'revision_conflict' };

/** The new state of an assistant written by an update or a restore. */
export interface AssistantChange {
  name: string;
  config: JsonObject;
  updatedAt: string;
}

export interface AssistantStore {
  /** Writes the assistant and its first version together. */
  create(assistant: AssistantRecord, version: VersionRecord, claim?: IdempotencyClaim): Promise<CreateOutcome>;
  get(workspaceId: string, id: string): Promise<AssistantRecord | undefined>;
  /** Newest first; `query` matches names containing it, ignoring case. */
  list(workspaceId: string, query: string, page: Page): Promise<{ assistants: AssistantRecord[]; total: number }>;
  /**
   * Applies the change only if the stored revision is still `expectedRevision`, bumps it, and
   * writes `version` (whose number is the new revision) in the same transaction.
   */
  update(workspaceId: string, id: string, expectedRevision: number, change: AssistantChange, version: VersionRecord): Promise<UpdateOutcome>;
  /** How many assistants of the workspace name the knowledge base. */
  countUsingKnowledgeBase(workspaceId: string, knowledgeBaseId: string): Promise<number>;
  /** Deletes the assistant and its versions. */
  delete(workspaceId: string, id: string): Promise<boolean>;
  /** Deletes at most `limit` Idempotency-Key claims made before `createdBefore`, the oldest first; answers how many. */
  pruneIdempotencyClaims(createdBefore: string, limit: number): Promise<number>;
}

export interface AssistantVersionStore {
  /** Newest first. */
  listVersions(workspaceId: string, assistantId: string, page: Page): Promise<{ versions: VersionRecord[]; total: number }>;
  getVersion(workspaceId: string, assistantId: string, number: number): Promise<VersionRecord | undefined>;
}

export const settingsKinds = ['memory', 'ai_inference'] as const;
export type SettingsKind = (typeof settingsKinds)[number];

/** One kind of a workspace's settings as stored: JSON with its secrets sealed, and a revision. */
export interface SettingsRecord {
  value: JsonObject;
  revision: number;
  updatedAt: string;
}

export interface SettingsStore {
  settings(workspaceId: string, kind: SettingsKind): Promise<SettingsRecord | undefined>;
  /**
   * Writes the settings if their stored revision is still `expectedRevision` (0: none stored yet);
   * false when another write came first (the caller reads again and retries).
   */
  saveSettings(workspaceId: string, kind: SettingsKind, value: JsonObject, expectedRevision: number, now: string): Promise<boolean>;
}

export interface KnowledgeBaseRecord {
  id: string;
  workspaceId: string;
  name: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

/** A knowledge base with what its documents add up to. */
export interface KnowledgeBaseView extends KnowledgeBaseRecord {
  documentCount: number;
  sizeBytes: number;
}

export type DocumentSource = 'text' | 'url' | 'file';
export type DocumentStatus = 'processing' | 'ready' | 'failed';

export interface DocumentRecord {
  id: string;
  workspaceId: string;
  knowledgeBaseId: string;
  name: string;
  source: DocumentSource;
  url: string | null;
  contentType: string;
  sizeBytes: number;
  /** The plan's largest document when it was added: a fetched page past it fails as too large. */
  maxBytes: number;
  status: DocumentStatus;
  failureReason: string | null;
  chunkCount: number;
  createdAt: string;
  updatedAt: string;
}

/** A document waiting for ingestion, with what was sent (nothing for a URL, fetched then). */
export interface PendingDocument {
  document: DocumentRecord;
  content: Uint8Array | null;
}

export type AddDocumentOutcome = 'added' | 'not_found' | 'documents_limit' | 'bytes_limit';

/** How ingestion ended: the chunks of the text (and the size fetched), or why it failed. */
export type IngestionOutcome = { chunks: string[]; sizeBytes: number; contentType: string } | { failure: string };

export interface ChunkHit {
  documentId: string;
  documentName: string;
  position: number;
  text: string;
  /** Higher is more relevant. */
  score: number;
}

export interface KnowledgeStore {
  createKnowledgeBase(knowledgeBase: KnowledgeBaseRecord): Promise<void>;
  getKnowledgeBase(workspaceId: string, id: string): Promise<KnowledgeBaseView | undefined>;
  /** Newest first. */
  listKnowledgeBases(workspaceId: string, page: Page): Promise<{ knowledgeBases: KnowledgeBaseView[]; total: number }>;
  /** Which of `ids` name knowledge bases of the workspace. */
  existingKnowledgeBases(workspaceId: string, ids: readonly string[]): Promise<Set<string>>;
  /** Deletes the knowledge base with its documents and chunks. */
  deleteKnowledgeBase(workspaceId: string, id: string): Promise<boolean>;
  /**
   * Stores the document (status processing) with its content, unless its knowledge base is gone
   * or the workspace would pass its plan's limits (counted in the same transaction).
   */
  addDocument(document: DocumentRecord, content: Uint8Array | null, limits: { documents: number; bytes: number }): Promise<AddDocumentOutcome>;
  /** Newest first. */
  listDocuments(workspaceId: string, knowledgeBaseId: string, page: Page): Promise<{ documents: DocumentRecord[]; total: number }>;
  deleteDocument(workspaceId: string, knowledgeBaseId: string, id: string): Promise<boolean>;
  /** Documents still processing, the oldest first. */
  pendingDocuments(limit: number): Promise<PendingDocument[]>;
  /**
   * Ends a document's ingestion: its chunks indexed and the status ready, or failed with the
   * reason; false (nothing written) when it is no longer processing (deleted, or done by another).
   */
  completeDocument(id: string, outcome: IngestionOutcome, now: string): Promise<boolean>;
  /** The chunks of the knowledge base's ready documents that match any of the terms, the most relevant first. */
  searchChunks(workspaceId: string, knowledgeBaseId: string, terms: readonly string[], limit: number): Promise<ChunkHit[]>;
}

/** Every part, as the adapters implement them; only main.ts and the tests hold it whole. */
export interface AssistantsStore extends AssistantStore, AssistantVersionStore, SettingsStore, KnowledgeStore {
  close(): Promise<void>;
}

/** What a stored claim means for a new request under the same key; undefined when it does not bind. */
export function claimOutcome(
  existing: { fingerprint: string; assistant: string; createdAt: string } | undefined | null,
  claim: IdempotencyClaim,
): CreateOutcome | undefined {
  const binding = claimBinding(existing, claim);
  return binding === 'replay' ? { kind: 'replayed', assistant: JSON.parse(existing!.assistant) as AssistantRecord } : binding && { kind: binding };
}
