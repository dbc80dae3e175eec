// The knowledge part of the assistants store on SQLite: knowledge bases, their documents (with
// what was sent until it is ingested) and the chunks in an FTS5 index searched by BM25.
import type Database from 'better-sqlite3';
import type { SqliteDatabase } from '@voice/runtime/store/sqlite';
import type { Page } from '@voice/runtime/validation';
import { documentOf, documentRowOf, type DocumentRow } from '../mapping/document.js';
import { knowledgeBaseOf, knowledgeBaseRowOf, type KnowledgeBaseRow } from '../mapping/knowledge-base.js';
import type {
  AddDocumentOutcome,
  ChunkHit,
  DocumentRecord,
  IngestionOutcome,
  KnowledgeBaseRecord,
  KnowledgeBaseView,
  KnowledgeStore,
  PendingDocument,
} from '../store.js';

export const knowledgeMigration = `
  CREATE TABLE knowledge_bases (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX knowledge_bases_by_workspace ON knowledge_bases (workspace_id, created_at DESC, id DESC);
  CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    knowledge_base_id TEXT NOT NULL REFERENCES knowledge_bases (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    url TEXT,
    content_type TEXT NOT NULL,
    size_bytes INTEGER NOT NULL,
    max_bytes INTEGER NOT NULL,
    status TEXT NOT NULL,
    failure_reason TEXT,
    chunk_count INTEGER NOT NULL,
    content BLOB,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX documents_by_knowledge_base ON documents (knowledge_base_id, created_at DESC, id DESC);
  CREATE INDEX documents_by_workspace ON documents (workspace_id);
  CREATE INDEX documents_processing ON documents (created_at) WHERE status = 'processing';
  CREATE VIRTUAL TABLE chunks USING fts5(text, document_id UNINDEXED, knowledge_base_id UNINDEXED, position UNINDEXED);`;

const statsSql = `COUNT(d.id) AS documentCount, COALESCE(SUM(d.size_bytes), 0) AS sizeBytes`;
type StatsRow = KnowledgeBaseRow & { documentCount: number; sizeBytes: number };
const viewOf = (row: StatsRow): KnowledgeBaseView => knowledgeBaseOf(row, { documentCount: row.documentCount, sizeBytes: row.sizeBytes });

/** The SQLite adapter's knowledge methods; the adapter class extends it with the other parts. */
export abstract class SqliteKnowledgeParts implements KnowledgeStore {
  protected constructor(
    protected readonly db: SqliteDatabase,
    protected readonly sql: (text: string) => Database.Statement,
  ) {}

  async createKnowledgeBase(knowledgeBase: KnowledgeBaseRecord): Promise<void> {
    this.sql(
      `INSERT INTO knowledge_bases (id, workspace_id, name, description, created_at, updated_at)
       VALUES (@id, @workspace_id, @name, @description, @created_at, @updated_at)`,
    ).run(knowledgeBaseRowOf(knowledgeBase));
  }

  async getKnowledgeBase(workspaceId: string, id: string): Promise<KnowledgeBaseView | undefined> {
    const row = this.sql(
      `SELECT k.*, ${statsSql} FROM knowledge_bases k LEFT JOIN documents d ON d.knowledge_base_id = k.id
       WHERE k.id = ? AND k.workspace_id = ? GROUP BY k.id`,
    ).get(id, workspaceId) as StatsRow | undefined;
    return row ? viewOf(row) : undefined;
  }

  async listKnowledgeBases(workspaceId: string, page: Page): Promise<{ knowledgeBases: KnowledgeBaseView[]; total: number }> {
    return this.db.transaction(() => {
      const { total } = this.sql('SELECT COUNT(*) AS total FROM knowledge_bases WHERE workspace_id = ?').get(workspaceId) as { total: number };
      const rows = this.sql(
        `SELECT k.*, ${statsSql} FROM knowledge_bases k LEFT JOIN documents d ON d.knowledge_base_id = k.id
         WHERE k.workspace_id = ? GROUP BY k.id ORDER BY k.created_at DESC, k.id DESC LIMIT ? OFFSET ?`,
      ).all(workspaceId, page.limit, page.offset) as StatsRow[];
      return { knowledgeBases: rows.map(viewOf), total };
    })();
  }

  async existingKnowledgeBases(workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
    const rows = this.sql('SELECT id FROM knowledge_bases WHERE workspace_id = ? AND id IN (SELECT value FROM json_each(?))').all(
      workspaceId,
      JSON.stringify(ids),
    ) as { id: string }[];
    return new Set(rows.map((row) => row.id));
  }

  async deleteKnowledgeBase(workspaceId: string, id: string): Promise<boolean> {
    return this.db.transaction(() => {
      const deleted = this.sql('DELETE FROM knowledge_bases WHERE id = ? AND workspace_id = ?').run(id, workspaceId).changes === 1;
      if (deleted) this.sql('DELETE FROM chunks WHERE knowledge_base_id = ?').run(id);
      return deleted;
    })();
  }

  async addDocument(document: DocumentRecord, content: Uint8Array | null, limits: { documents: number; bytes: number }): Promise<AddDocumentOutcome> {
    return this.db.transaction((): AddDocumentOutcome => {
      if (!this.sql('SELECT 1 FROM knowledge_bases WHERE id = ? AND workspace_id = ?').get(document.knowledgeBaseId, document.workspaceId)) return 'not_found';
      const usage = this.sql('SELECT COUNT(*) AS documents, COALESCE(SUM(size_bytes), 0) AS bytes FROM documents WHERE workspace_id = ?').get(document.workspaceId) as {
        documents: number;
        bytes: number;
      };
      if (usage.documents + 1 > limits.documents) return 'documents_limit';
      if (usage.bytes + document.sizeBytes > limits.bytes) return 'bytes_limit';
      this.sql(
        `INSERT INTO documents (id, workspace_id, knowledge_base_id, name, source, url, content_type, size_bytes, max_bytes, status, failure_reason, chunk_count, content, created_at, updated_at)
         VALUES (@id, @workspace_id, @knowledge_base_id, @name, @source, @url, @content_type, @size_bytes, @max_bytes, @status, @failure_reason, @chunk_count, @content, @created_at, @updated_at)`,
      ).run({ ...documentRowOf(document), content: content ? Buffer.from(content) : null });
      return 'added';
    }).immediate();
  }

  async listDocuments(workspaceId: string, knowledgeBaseId: string, page: Page): Promise<{ documents: DocumentRecord[]; total: number }> {
    return this.db.transaction(() => {
      const { total } = this.sql('SELECT COUNT(*) AS total FROM documents WHERE knowledge_base_id = ? AND workspace_id = ?').get(knowledgeBaseId, workspaceId) as {
        total: number;
      };
      const rows = this.sql(
        `SELECT ${documentColumns} FROM documents WHERE knowledge_base_id = ? AND workspace_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      ).all(knowledgeBaseId, workspaceId, page.limit, page.offset) as DocumentRow[];
      return { documents: rows.map(documentOf), total };
    })();
  }

  async deleteDocument(workspaceId: string, knowledgeBaseId: string, id: string): Promise<boolean> {
    return this.db.transaction(() => {
      const deleted = this.sql('DELETE FROM documents WHERE id = ? AND knowledge_base_id = ? AND workspace_id = ?').run(id, knowledgeBaseId, workspaceId).changes === 1;
      if (deleted) this.sql('DELETE FROM chunks WHERE document_id = ?').run(id);
      return deleted;
    })();
  }

  async pendingDocuments(limit: number): Promise<PendingDocument[]> {
    const rows = this.sql(`SELECT ${documentColumns}, content FROM documents WHERE status = 'processing' ORDER BY created_at LIMIT ?`).all(limit) as (DocumentRow & {
      content: Buffer | null;
    })[];
    return rows.map(({ content, ...row }) => ({ document: documentOf(row), content: content ? new Uint8Array(content) : null }));
  }

  async completeDocument(id: string, outcome: IngestionOutcome, now: string): Promise<boolean> {
    return this.db.transaction(() => {
      const document = this.sql(`SELECT knowledge_base_id FROM documents WHERE id = ? AND status = 'processing'`).get(id) as { knowledge_base_id: string } | undefined;
      if (!document) return false;
      if ('failure' in outcome) {
        this.sql(`UPDATE documents SET status = 'failed', failure_reason = ?, content = NULL, updated_at = ? WHERE id = ?`).run(outcome.failure, now, id);
        return true;
      }
      const insert = this.sql('INSERT INTO chunks (text, document_id, knowledge_base_id, position) VALUES (?, ?, ?, ?)');
      outcome.chunks.forEach((text, position) => insert.run(text, id, document.knowledge_base_id, position));
      this.sql(
        `UPDATE documents SET status = 'ready', chunk_count = ?, size_bytes = ?, content_type = ?, content = NULL, updated_at = ? WHERE id = ?`,
      ).run(outcome.chunks.length, outcome.sizeBytes, outcome.contentType, now, id);
      return true;
    }).immediate();
  }

  async searchChunks(workspaceId: string, knowledgeBaseId: string, terms: readonly string[], limit: number): Promise<ChunkHit[]> {
    if (terms.length === 0) return [];
    // Each term quoted, so nothing a caller sends is read as FTS5 query syntax.
    const match = terms.map((term) => `"${term.replace(/"/g, '""')}"`).join(' OR ');
    const rows = this.sql(
      `SELECT c.document_id AS documentId, d.name AS documentName, c.position AS position, c.text AS text, bm25(chunks) AS rank
       FROM chunks c JOIN documents d ON d.id = c.document_id
       WHERE chunks MATCH ? AND c.knowledge_base_id = ? AND d.workspace_id = ? AND d.status = 'ready'
       ORDER BY rank LIMIT ?`,
    ).all(match, knowledgeBaseId, workspaceId, limit) as (Omit<ChunkHit, 'score'> & { rank: number })[];
    // bm25() is lower for better matches; the API's score is higher for better ones.
    return rows.map(({ rank, ...hit }) => ({ ...hit, position: Number(hit.position), score: Math.round(-rank * 10_000) / 10_000 }));
  }
}

const documentColumns =
  'id, workspace_id, knowledge_base_id, name, source, url, content_type, size_bytes, max_bytes, status, failure_reason, chunk_count, created_at, updated_at';
