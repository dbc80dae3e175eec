// The KnowledgeService: knowledge bases and their documents. A document is stored as processing
// and answered at once (a URL only once its address passed the egress guard); ingestion follows.
// The plan bounds the documents and bytes of a workspace (403) and the size of one document (413).
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { workspaceCallerOf } from '@voice/runtime/caller';
import { checkDestination, EgressRefused, type EgressPolicy } from '@voice/runtime/egress';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { isUuid, newId } from '@voice/runtime/ids';
import { normalisePage, validate } from '@voice/runtime/validation';
import { addDocumentBodySchema, createKnowledgeBaseBodySchema, queryKnowledgeBaseBodySchema } from '@voice/contracts/knowledge';
import type {
  AddDocumentRequest,
  CreateKnowledgeBaseRequest,
  KnowledgeService,
  ListDocumentsRequest,
  ListKnowledgeBasesRequest,
  QueryKnowledgeBaseRequest,
} from '@voice/proto/voice/assistants/v1/knowledge';
import { searchTerms } from '../domain/chunking.js';
import { knowledgeLimits } from '../domain/knowledge-limits.js';
import type { Ingestion } from '../ingestion/ingestion.js';
import { presentDocument, presentKnowledgeBase } from '../presenter.js';
import type { AssistantStore, DocumentRecord, KnowledgeBaseView, KnowledgeStore } from '../store/store.js';
import { planOf } from '../assistants/configurations.js';

export interface KnowledgeDeps {
  store: KnowledgeStore;
  assistants: Pick<AssistantStore, 'countUsingKnowledgeBase'>;
  ingestion: Pick<Ingestion, 'wake'>;
  policy: EgressPolicy;
  now: () => Date;
}

/** A document's name when none was sent: the first words of a text. */
const firstWords = (text: string): string => {
  const words = text.trim().split(/\s+/).slice(0, 8).join(' ');
  return words.length > 60 ? `${words.slice(0, 57)}...` : words;
};

export class KnowledgeArea implements ServiceImpl<typeof KnowledgeService> {
  constructor(private readonly deps: KnowledgeDeps) {}

  async createKnowledgeBase(request: CreateKnowledgeBaseRequest, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    const input = validate(createKnowledgeBaseBodySchema, { name: request.name, description: request.description || undefined });
    if (!input.ok) throw invalidRequest(input.issues);
    const at = this.deps.now().toISOString();
    const record = { id: newId(), workspaceId, name: input.value.name, description: input.value.description ?? '', createdAt: at, updatedAt: at };
    await this.deps.store.createKnowledgeBase(record);
    return { knowledgeBase: presentKnowledgeBase({ ...record, documentCount: 0, sizeBytes: 0 }) };
  }

  async getKnowledgeBase(request: { id: string }, context: HandlerContext) {
    return { knowledgeBase: presentKnowledgeBase(await this.load(request.id, context)) };
  }

  async listKnowledgeBases(request: ListKnowledgeBasesRequest, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    const { knowledgeBases, total } = await this.deps.store.listKnowledgeBases(workspaceId, normalisePage(request.page));
    return { knowledgeBases: knowledgeBases.map(presentKnowledgeBase), total };
  }

  async deleteKnowledgeBase(request: { id: string }, context: HandlerContext) {
    const knowledgeBase = await this.load(request.id, context);
    const users = await this.deps.assistants.countUsingKnowledgeBase(knowledgeBase.workspaceId, knowledgeBase.id);
    if (users > 0) {
      throw serviceError('conflict', `the knowledge base is used by ${users} assistant${users === 1 ? '' : 's'}; remove it from their knowledge_base_ids first`);
    }
    if (!(await this.deps.store.deleteKnowledgeBase(knowledgeBase.workspaceId, knowledgeBase.id))) throw notFound('knowledge base');
    return {};
  }

  async addDocument(request: AddDocumentRequest, context: HandlerContext) {
    const knowledgeBase = await this.load(request.knowledgeBaseId, context);
    const plan = planOf(request.workspacePlan);
    const limits = knowledgeLimits[plan];
    const content = request.content;
    const sent = content.case === 'file' ? content.value.data : content.case === 'text' ? new TextEncoder().encode(content.value) : undefined;
    if (sent && sent.byteLength > limits.documentBytes) {
      throw serviceError('payload_too_large', `the document has ${sent.byteLength} bytes; the ${plan} plan takes documents of at most ${limits.documentBytes} bytes`);
    }
    const input = validate(addDocumentBodySchema, {
      name: request.name || undefined,
      text: content.case === 'text' ? content.value : undefined,
      url: content.case === 'url' ? content.value : undefined,
      file:
        content.case === 'file'
          ? { name: content.value.name, content_type: content.value.contentType, data_base64: Buffer.from(content.value.data).toString('base64') }
          : undefined,
    });
    if (!input.ok) throw invalidRequest(input.issues);
    const body = input.value;
    if (body.url !== undefined) {
      try {
        await checkDestination(body.url, this.deps.policy);
      } catch (error) {
        if (error instanceof EgressRefused) throw serviceError('destination_forbidden', `${error.host} is a private or reserved address; nothing was fetched`, { cause: error });
        throw error;
      }
    }
    const at = this.deps.now().toISOString();
    const document: DocumentRecord = {
      id: newId(),
      workspaceId: knowledgeBase.workspaceId,
      knowledgeBaseId: knowledgeBase.id,
      name: body.name ?? body.file?.name ?? body.url ?? firstWords(body.text ?? ''),
      source: body.url !== undefined ? 'url' : body.file !== undefined ? 'file' : 'text',
      url: body.url ?? null,
      contentType: body.file?.content_type ?? (body.text !== undefined ? 'text/plain' : ''),
      sizeBytes: sent?.byteLength ?? 0,
      maxBytes: limits.documentBytes,
      status: 'processing',
      failureReason: null,
      chunkCount: 0,
      createdAt: at,
      updatedAt: at,
    };
    const outcome = await this.deps.store.addDocument(document, sent ?? null, limits);
    switch (outcome) {
      case 'not_found':
        throw notFound('knowledge base');
      case 'documents_limit':
        throw serviceError('forbidden', `the ${plan} plan allows ${limits.documents} documents in a workspace's knowledge bases`);
      case 'bytes_limit':
        throw serviceError('forbidden', `the ${plan} plan allows ${limits.bytes} bytes of documents in a workspace's knowledge bases`);
      case 'added':
        this.deps.ingestion.wake();
        return { document: presentDocument(document) };
    }
  }

  async listDocuments(request: ListDocumentsRequest, context: HandlerContext) {
    const knowledgeBase = await this.load(request.knowledgeBaseId, context);
    const { documents, total } = await this.deps.store.listDocuments(knowledgeBase.workspaceId, knowledgeBase.id, normalisePage(request.page));
    return { documents: documents.map(presentDocument), total };
  }

  async deleteDocument(request: { knowledgeBaseId: string; id: string }, context: HandlerContext) {
    const knowledgeBase = await this.load(request.knowledgeBaseId, context);
    if (!isUuid(request.id) || !(await this.deps.store.deleteDocument(knowledgeBase.workspaceId, knowledgeBase.id, request.id))) throw notFound('document');
    return {};
  }

  async queryKnowledgeBase(request: QueryKnowledgeBaseRequest, context: HandlerContext) {
    const knowledgeBase = await this.load(request.knowledgeBaseId, context);
    const input = validate(queryKnowledgeBaseBodySchema, { query: request.query, limit: request.limit || undefined });
    if (!input.ok) throw invalidRequest(input.issues);
    const hits = await this.deps.store.searchChunks(knowledgeBase.workspaceId, knowledgeBase.id, searchTerms(input.value.query), input.value.limit ?? 5);
    return { hits };
  }

  private async load(id: string, context: HandlerContext): Promise<KnowledgeBaseView> {
    const { workspaceId } = workspaceCallerOf(context);
    const knowledgeBase = isUuid(id) ? await this.deps.store.getKnowledgeBase(workspaceId, id) : undefined;
    if (!knowledgeBase) throw notFound('knowledge base');
    return knowledgeBase;
  }
}
