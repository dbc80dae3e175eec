// The query parameters every list endpoint accepts: limit and offset as the client sent them
// (parsePage decides their rules). List endpoints with filters spread these fields into theirs.
import { z } from 'zod';
import { defaultPageLimit, maxPageLimit } from './pagination.js';

export const pageQueryFields = { limit: z.string().optional(), offset: z.string().optional() };

export const pageQuerySchema = z.strictObject(pageQueryFields);

/**
 * The same two fields as typed clients see them (the OpenAPI parameters, MCP tools' input): integers
 * with the bounds parsePage applies. A query string carries them as text; a tool sends numbers.
 */
export const typedPageFields = {
  limit: z.int().min(1).max(maxPageLimit).default(defaultPageLimit).describe(`Page size: an integer from 1 to ${maxPageLimit}.`),
  offset: z.int().min(0).default(0).describe('Items to skip: an integer of at least 0. Page until `offset + limit >= meta.pagination.total`.'),
};
