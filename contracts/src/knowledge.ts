// Knowledge bases and their documents: the bodies of create, add-document and query, and the
// answers. The gateway validates REST bodies and MCP arguments with them; the assistants service
// applies the same rules to what it stores.
import { z } from 'zod';
import { isHttpUrlWithoutCredentials, pageQueryFields } from '@voice/runtime/validation';
import { idSchema, timeSchema } from './responses.js';

export const documentContentTypes = ['text/plain', 'text/markdown', 'text/html', 'application/pdf'] as const;
export type DocumentContentType = (typeof documentContentTypes)[number];
export const documentSources = ['text', 'url', 'file'] as const;
export const documentStatuses = ['processing', 'ready', 'failed'] as const;

const name = z.string().trim().min(1).max(200);

/** Body of POST /knowledge-bases. */
export const createKnowledgeBaseBodySchema = z.strictObject({
  name,
  description: z.string().max(1000).optional(),
});

/** Body of POST /knowledge-bases/{id}/documents: exactly one of text, url and file. */
export const addDocumentBodySchema = z
  .strictObject({
    name: name.optional().describe('shown in lists; the URL, the file name or the text’s first words when absent'),
    text: z.string().min(1).describe('the document itself, as plain text or Markdown'),
    url: z
      .string()
      .max(2048)
      .refine(isHttpUrlWithoutCredentials, 'must be an http or https URL without credentials')
      .describe('a web page or file fetched by the platform (publicly reachable addresses only)'),
    file: z
      .strictObject({
        name: z.string().min(1).max(200),
        content_type: z.enum(documentContentTypes),
        data_base64: z.base64().min(1).describe('the file’s bytes, base64-encoded'),
      })
      .describe('an uploaded file: plain text, Markdown, HTML or PDF'),
  })
  .partial({ text: true, url: true, file: true })
  .refine((body) => [body.text, body.url, body.file].filter((part) => part !== undefined).length === 1, {
    message: 'send exactly one of text, url and file',
    path: ['text'],
  });

/** Body of POST /knowledge-bases/{id}/query. */
export const queryKnowledgeBaseBodySchema = z.strictObject({
  query: z.string().trim().min(1).max(1000),
  limit: z.int().min(1).max(50).optional().describe('how many chunks at most; 5 unless said'),
});

export const listKnowledgeBasesQuerySchema = z.strictObject({ ...pageQueryFields });

// ---------------------------------------------------------------------------------------------
// Answers

export const knowledgeBaseSchema = z.object({
  id: idSchema,
  name: z.string(),
  description: z.string(),
  document_count: z.int().min(0),
  size_bytes: z.int().min(0).describe('the documents’ sizes added up'),
  created_at: timeSchema.nullable(),
  updated_at: timeSchema.nullable(),
});

export const documentSchema = z.object({
  id: idSchema,
  knowledge_base_id: idSchema,
  name: z.string(),
  source: z.enum(documentSources),
  url: z.string().nullable().describe('the address it was fetched from (source url)'),
  content_type: z.string(),
  size_bytes: z.int().min(0),
  status: z.enum(documentStatuses).describe('processing until ingested, then ready (searchable) or failed'),
  failure_reason: z.string().nullable(),
  chunk_count: z.int().min(0),
  created_at: timeSchema.nullable(),
  updated_at: timeSchema.nullable(),
});

export const knowledgeHitSchema = z.object({
  document_id: idSchema,
  document_name: z.string(),
  position: z.int().min(0).describe('the chunk’s place in its document, from 0'),
  text: z.string(),
  score: z.number().describe('higher is more relevant (BM25); comparable within one answer only'),
});
