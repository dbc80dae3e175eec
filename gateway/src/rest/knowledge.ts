// /knowledge-bases, their documents and search (issue 15; API.md 10): documents from text, a URL
// or an uploaded file, ingested after the answer, and the chunks that best answer a query.
import {
  addDocumentBodySchema,
  createKnowledgeBaseBodySchema,
  documentSchema,
  documentSources,
  documentStatuses,
  knowledgeBaseSchema,
  knowledgeHitSchema,
  listKnowledgeBasesQuerySchema,
  queryKnowledgeBaseBodySchema,
} from '@voice/contracts/knowledge';
import { dataOf, deletedSchema, listOfSchema, oneOf } from '@voice/contracts/responses';
import { pageQuerySchema } from '@voice/runtime/validation';
import { toIso } from '@voice/runtime/time';
import type { Document, KnowledgeBase, KnowledgeHit } from '@voice/proto/voice/assistants/v1/knowledge';
import { z } from 'zod';
import type { RestRouter } from './router.js';
import type { RestDeps } from './deps.js';
import { toolHints } from './operation.js';
import { deletedOf, listOf } from './presenters.js';
import { pageOf } from './validate.js';

const presentKnowledgeBase = (knowledgeBase: KnowledgeBase): z.infer<typeof knowledgeBaseSchema> => ({
  id: knowledgeBase.id,
  name: knowledgeBase.name,
  description: knowledgeBase.description,
  document_count: knowledgeBase.documentCount,
  size_bytes: Number(knowledgeBase.sizeBytes),
  created_at: toIso(knowledgeBase.createdAt),
  updated_at: toIso(knowledgeBase.updatedAt),
});

const presentDocument = (document: Document): z.infer<typeof documentSchema> => ({
  id: document.id,
  knowledge_base_id: document.knowledgeBaseId,
  name: document.name,
  source: oneOf(documentSources, document.source),
  url: document.url || null,
  content_type: document.contentType,
  size_bytes: Number(document.sizeBytes),
  status: oneOf(documentStatuses, document.status),
  failure_reason: document.failureReason || null,
  chunk_count: document.chunkCount,
  created_at: toIso(document.createdAt),
  updated_at: toIso(document.updatedAt),
});

const presentHit = (hit: KnowledgeHit): z.infer<typeof knowledgeHitSchema> => ({
  document_id: hit.documentId,
  document_name: hit.documentName,
  position: hit.position,
  text: hit.text,
  score: hit.score,
});

export function registerKnowledgeRoutes(rest: RestRouter, deps: RestDeps): void {
  const knowledge = deps.clients.knowledge;

  rest.operation({
    method: 'get',
    path: '/knowledge-bases',
    scope: 'knowledge:read',
    query: listKnowledgeBasesQuerySchema,
    doc: {
      id: 'listKnowledgeBases',
      summary: 'The workspace’s knowledge bases, newest first, with their document counts and sizes',
      toolset: 'knowledge',
      response: listOfSchema(knowledgeBaseSchema),
      mcp: { tool: 'list_knowledge_bases', annotations: toolHints.read },
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await knowledge.listKnowledgeBases({ page }, call.options);
      return { body: listOf(answer.knowledgeBases.map(presentKnowledgeBase), page, answer.total) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/knowledge-bases',
    scope: 'knowledge:write',
    body: createKnowledgeBaseBodySchema,
    doc: {
      id: 'createKnowledgeBase',
      summary: 'Create a knowledge base',
      toolset: 'knowledge',
      status: 201,
      response: dataOf(knowledgeBaseSchema),
      mcp: { tool: 'create_knowledge_base', annotations: toolHints.create },
    },
    handle: async (call) => {
      const answer = await knowledge.createKnowledgeBase({ name: call.body.name, description: call.body.description ?? '' }, call.options);
      return { body: { data: presentKnowledgeBase(answer.knowledgeBase!) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/knowledge-bases/:id',
    scope: 'knowledge:read',
    doc: {
      id: 'getKnowledgeBase',
      summary: 'A knowledge base with its document count and size',
      toolset: 'knowledge',
      response: dataOf(knowledgeBaseSchema),
      mcp: { tool: 'get_knowledge_base', annotations: toolHints.read },
    },
    handle: async (call) => ({ body: { data: presentKnowledgeBase((await knowledge.getKnowledgeBase({ id: call.params.id }, call.options)).knowledgeBase!) } }),
  });

  rest.operation({
    method: 'delete',
    path: '/knowledge-bases/:id',
    scope: 'knowledge:write',
    doc: {
      id: 'deleteKnowledgeBase',
      summary: 'Delete a knowledge base with its documents',
      description: '409 `conflict` while an assistant names it in `knowledge_base_ids`.',
      toolset: 'knowledge',
      response: deletedSchema,
      mcp: { tool: 'delete_knowledge_base', annotations: toolHints.remove },
    },
    handle: async (call) => {
      await knowledge.deleteKnowledgeBase({ id: call.params.id }, call.options);
      return { body: deletedOf(call.params.id) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/knowledge-bases/:id/documents',
    scope: 'knowledge:write',
    body: addDocumentBodySchema,
    doc: {
      id: 'addDocument',
      summary: 'Add a document from text, a URL or an uploaded file (plain text, Markdown, HTML, PDF)',
      description:
        'Answers 201 with the document `processing`; ingestion follows (fetching a URL, reading the file, splitting it into chunks and indexing them) and ends `ready` or `failed` with `failure_reason`. A URL is fetched only from publicly reachable addresses: a private or reserved one is 403 `destination_forbidden` and nothing is fetched. The plan bounds the documents and bytes of the workspace (403 past them) and the size of one document (413, code `invalid_request`).',
      toolset: 'knowledge',
      status: 201,
      response: dataOf(documentSchema),
      mcp: { tool: 'add_document', annotations: toolHints.create },
    },
    handle: async (call) => {
      const { body } = call;
      const content = body.text !== undefined
        ? { case: 'text' as const, value: body.text }
        : body.url !== undefined
          ? { case: 'url' as const, value: body.url }
          : { case: 'file' as const, value: { name: body.file!.name, contentType: body.file!.content_type, data: Buffer.from(body.file!.data_base64, 'base64') } };
      const answer = await knowledge.addDocument(
        { knowledgeBaseId: call.params.id, name: body.name ?? '', content, workspacePlan: call.auth.workspace.plan },
        call.options,
      );
      return { body: { data: presentDocument(answer.document!) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/knowledge-bases/:id/documents',
    scope: 'knowledge:read',
    query: pageQuerySchema,
    doc: { id: 'listDocuments', summary: 'A knowledge base’s documents, newest first, with their ingestion status', toolset: 'knowledge', response: listOfSchema(documentSchema) },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await knowledge.listDocuments({ knowledgeBaseId: call.params.id, page }, call.options);
      return { body: listOf(answer.documents.map(presentDocument), page, answer.total) };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/knowledge-bases/:id/documents/:doc_id',
    scope: 'knowledge:write',
    doc: { id: 'deleteDocument', summary: 'Delete a document and its chunks', toolset: 'knowledge', response: deletedSchema },
    handle: async (call) => {
      await knowledge.deleteDocument({ knowledgeBaseId: call.params.id, id: call.params.doc_id }, call.options);
      return { body: deletedOf(call.params.doc_id) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/knowledge-bases/:id/query',
    scope: 'knowledge:read',
    body: queryKnowledgeBaseBodySchema,
    doc: {
      id: 'queryKnowledgeBase',
      summary: 'The chunks of the ready documents that best answer a query, with their scores',
      description: 'Full-text search ranked by BM25: any of the query’s words matches, rarer words weigh more. `limit` is 5 unless said (at most 50).',
      toolset: 'knowledge',
      response: dataOf(z.array(knowledgeHitSchema)),
    },
    handle: async (call) => {
      const answer = await knowledge.queryKnowledgeBase({ knowledgeBaseId: call.params.id, query: call.body.query, limit: call.body.limit ?? 0 }, call.options);
      return { body: { data: answer.hits.map(presentHit) } };
    },
  });
}
