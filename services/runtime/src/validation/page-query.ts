// The query parameters every list endpoint accepts: limit and offset as the client sent them
// (parsePage decides their rules). List endpoints with filters spread these fields into theirs.
import { z } from 'zod';

export const pageQueryFields = { limit: z.string().optional(), offset: z.string().optional() };

export const pageQuerySchema = z.strictObject(pageQueryFields);
