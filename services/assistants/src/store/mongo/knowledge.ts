// The knowledge part of the assistants store on MongoDB: knowledge bases, their documents (with
// what was sent until it is ingested) and the chunks under a text index, searched by its score.
import { Binary, type Collection, type Db } from 'mongodb';
import { inTransaction, type MongoHandle } from '@voice/runtime/store/mongo';
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

type KnowledgeBaseDocument = Omit<KnowledgeBaseRow, 'id'> & { _id: string };
type DocumentDocument = Omit<DocumentRow, 'id'> & { _id: string; content: Binary | null };
interface ChunkDocument {
  _id: string;
  document_id: string;
  knowledge_base_id: string;
  workspace_id: string;
  position: number;
  text: string;
}

export interface KnowledgeCollections {
  /** One document per workspace, written by every add so concurrent adds conflict (no write skew past the limits). */
  addLocks: Collection<{ _id: string; adds: number }>;
  knowledgeBases: Collection<KnowledgeBaseDocument>;
  documents: Collection<DocumentDocument>;
  chunks: Collection<ChunkDocument>;
}

export async function knowledgeCollections(db: Db): Promise<KnowledgeCollections> {
  const knowledgeBases = db.collection<KnowledgeBaseDocument>('knowledge_bases');
  const documents = db.collection<DocumentDocument>('documents');
  const chunks = db.collection<ChunkDocument>('chunks');
  await knowledgeBases.createIndex({ workspace_id: 1, created_at: -1, _id: -1 }, { name: 'newest_first' });
  await documents.createIndex({ knowledge_base_id: 1, created_at: -1, _id: -1 }, { name: 'newest_first' });
  await documents.createIndex({ workspace_id: 1 }, { name: 'by_workspace' });
  await documents.createIndex({ status: 1, created_at: 1 }, { name: 'by_status' });
  await chunks.createIndex({ text: 'text' }, { name: 'chunk_text' });
  await chunks.createIndex({ document_id: 1 }, { name: 'by_document' });
  return { addLocks: db.collection<{ _id: string; adds: number }>('knowledge_add_locks'), knowledgeBases, documents, chunks };
}

const documentRecordOf = ({ _id, content: _, ...rest }: DocumentDocument): DocumentRecord => documentOf({ id: _id, ...rest });

/** Ends a transaction with an outcome that is not an error to the caller. */
class Refused extends Error {
  constructor(readonly outcome: AddDocumentOutcome) {
    super(outcome);
  }
}

/** The MongoDB adapter's knowledge methods; the adapter class extends it with the other parts. */
export abstract class MongoKnowledgeParts implements KnowledgeStore {
  protected constructor(
    protected readonly handle: MongoHandle,
    private readonly knowledge: KnowledgeCollections,
  ) {}

  private async stats(workspaceId: string, ids: string[]): Promise<Map<string, { documentCount: number; sizeBytes: number }>> {
    const grouped = await this.knowledge.documents
      .aggregate<{ _id: string; documentCount: number; sizeBytes: number }>([
        { $match: { workspace_id: workspaceId, knowledge_base_id: { $in: ids } } },
        { $group: { _id: '$knowledge_base_id', documentCount: { $sum: 1 }, sizeBytes: { $sum: '$size_bytes' } } },
      ])
      .toArray();
    return new Map(grouped.map((group) => [group._id, { documentCount: group.documentCount, sizeBytes: group.sizeBytes }]));
  }

  private async views(workspaceId: string, docs: KnowledgeBaseDocument[]): Promise<KnowledgeBaseView[]> {
    const stats = await this.stats(
      workspaceId,
      docs.map((doc) => doc._id),
    );
    return docs.map(({ _id, ...rest }) => knowledgeBaseOf({ id: _id, ...rest }, stats.get(_id) ?? { documentCount: 0, sizeBytes: 0 }));
  }

  async createKnowledgeBase(knowledgeBase: KnowledgeBaseRecord): Promise<void> {
    const { id, ...rest } = knowledgeBaseRowOf(knowledgeBase);
    await this.knowledge.knowledgeBases.insertOne({ _id: id, ...rest });
  }

  async getKnowledgeBase(workspaceId: string, id: string): Promise<KnowledgeBaseView | undefined> {
    const doc = await this.knowledge.knowledgeBases.findOne({ _id: id, workspace_id: workspaceId });
    return doc ? (await this.views(workspaceId, [doc]))[0] : undefined;
  }

  async listKnowledgeBases(workspaceId: string, page: Page): Promise<{ knowledgeBases: KnowledgeBaseView[]; total: number }> {
    const filter = { workspace_id: workspaceId };
    const [total, docs] = await Promise.all([
      this.knowledge.knowledgeBases.countDocuments(filter),
      this.knowledge.knowledgeBases.find(filter).sort({ created_at: -1, _id: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { knowledgeBases: await this.views(workspaceId, docs), total };
  }

  async existingKnowledgeBases(workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
    const docs = await this.knowledge.knowledgeBases.find({ workspace_id: workspaceId, _id: { $in: [...ids] } }, { projection: { _id: 1 } }).toArray();
    return new Set(docs.map((doc) => doc._id));
  }

  async deleteKnowledgeBase(workspaceId: string, id: string): Promise<boolean> {
    return inTransaction(this.handle, async (session) => {
      const deleted = (await this.knowledge.knowledgeBases.deleteOne({ _id: id, workspace_id: workspaceId }, { session })).deletedCount === 1;
      if (deleted) {
        await this.knowledge.documents.deleteMany({ knowledge_base_id: id }, { session });
        await this.knowledge.chunks.deleteMany({ knowledge_base_id: id }, { session });
      }
      return deleted;
    });
  }

  async addDocument(document: DocumentRecord, content: Uint8Array | null, limits: { documents: number; bytes: number }): Promise<AddDocumentOutcome> {
    try {
      return await inTransaction(this.handle, async (session) => {
        const owner = await this.knowledge.knowledgeBases.countDocuments({ _id: document.knowledgeBaseId, workspace_id: document.workspaceId }, { session, limit: 1 });
        if (!owner) throw new Refused('not_found');
        await this.knowledge.addLocks.updateOne({ _id: document.workspaceId }, { $inc: { adds: 1 } }, { upsert: true, session });
        const [usage] = await this.knowledge.documents
          .aggregate<{ documents: number; bytes: number }>(
            [{ $match: { workspace_id: document.workspaceId } }, { $group: { _id: null, documents: { $sum: 1 }, bytes: { $sum: '$size_bytes' } } }],
            { session },
          )
          .toArray();
        if ((usage?.documents ?? 0) + 1 > limits.documents) throw new Refused('documents_limit');
        if ((usage?.bytes ?? 0) + document.sizeBytes > limits.bytes) throw new Refused('bytes_limit');
        const { id, ...rest } = documentRowOf(document);
        await this.knowledge.documents.insertOne({ _id: id, ...rest, content: content ? new Binary(content) : null }, { session });
        return 'added' as const;
      });
    } catch (error) {
      if (error instanceof Refused) return error.outcome;
      throw error;
    }
  }

  async listDocuments(workspaceId: string, knowledgeBaseId: string, page: Page): Promise<{ documents: DocumentRecord[]; total: number }> {
    const filter = { knowledge_base_id: knowledgeBaseId, workspace_id: workspaceId };
    const [total, docs] = await Promise.all([
      this.knowledge.documents.countDocuments(filter),
      this.knowledge.documents.find(filter, { projection: { content: 0 } }).sort({ created_at: -1, _id: -1 }).skip(page.offset).limit(page.limit).toArray(),
    ]);
    return { documents: docs.map((doc) => documentRecordOf({ ...doc, content: null })), total };
  }

  async deleteDocument(workspaceId: string, knowledgeBaseId: string, id: string): Promise<boolean> {
    return inTransaction(this.handle, async (session) => {
      const deleted = (await this.knowledge.documents.deleteOne({ _id: id, knowledge_base_id: knowledgeBaseId, workspace_id: workspaceId }, { session })).deletedCount === 1;
      if (deleted) await this.knowledge.chunks.deleteMany({ document_id: id }, { session });
      return deleted;
    });
  }

  async pendingDocuments(limit: number): Promise<PendingDocument[]> {
    const docs = await this.knowledge.documents.find({ status: 'processing' }).sort({ created_at: 1 }).limit(limit).toArray();
    return docs.map((doc) => ({ document: documentRecordOf(doc), content: doc.content ? new Uint8Array(doc.content.buffer) : null }));
  }

  async completeDocument(id: string, outcome: IngestionOutcome, now: string): Promise<boolean> {
    return inTransaction(this.handle, async (session) => {
      const document = await this.knowledge.documents.findOne({ _id: id, status: 'processing' }, { session, projection: { knowledge_base_id: 1, workspace_id: 1 } });
      if (!document) return false;
      if ('failure' in outcome) {
        await this.knowledge.documents.updateOne({ _id: id }, { $set: { status: 'failed', failure_reason: outcome.failure, content: null, updated_at: now } }, { session });
        return true;
      }
      if (outcome.chunks.length > 0) {
        await this.knowledge.chunks.insertMany(
          outcome.chunks.map((text, position) => ({
            _id: `${id}:${position}`,
            document_id: id,
            knowledge_base_id: document.knowledge_base_id,
            workspace_id: document.workspace_id,
            position,
            text,
          })),
          { session },
        );
      }
      await this.knowledge.documents.updateOne(
        { _id: id },
        { $set: { status: 'ready', chunk_count: outcome.chunks.length, size_bytes: outcome.sizeBytes, content_type: outcome.contentType, content: null, updated_at: now } },
        { session },
      );
      return true;
    });
  }

  async searchChunks(workspaceId: string, knowledgeBaseId: string, terms: readonly string[], limit: number): Promise<ChunkHit[]> {
    if (terms.length === 0) return [];
    const chunks = await this.knowledge.chunks
      .find(
        { $text: { $search: terms.join(' ') }, knowledge_base_id: knowledgeBaseId, workspace_id: workspaceId },
        { projection: { score: { $meta: 'textScore' }, document_id: 1, position: 1, text: 1 } },
      )
      .sort({ score: { $meta: 'textScore' } })
      .limit(limit)
      .toArray();
    const names = new Map(
      (await this.knowledge.documents.find({ _id: { $in: [...new Set(chunks.map((chunk) => chunk.document_id))] }, status: 'ready' }, { projection: { name: 1 } }).toArray()).map(
        (doc) => [doc._id, doc.name],
      ),
    );
    return chunks.flatMap((chunk) => {
      const name = names.get(chunk.document_id);
      const score = (chunk as ChunkDocument & { score: number }).score;
      return name === undefined ? [] : [{ documentId: chunk.document_id, documentName: name, position: chunk.position, text: chunk.text, score: Math.round(score * 10_000) / 10_000 }];
    });
  }
}
