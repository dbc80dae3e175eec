// The one way telephony handlers read a request: the schema decides, a failure is a 400 that
// names every bad field, and ids that cannot exist are simply not found.
import type { z } from 'zod';
import { invalidRequest, notFound } from '@voice/runtime/errors';
import { isUuid } from '@voice/runtime/ids';
import { definedFields, validate } from '@voice/runtime/validation';

export function parseInput<S extends z.ZodType>(schema: S, fields: Record<string, unknown>): z.output<S> {
  const result = validate(schema, definedFields(fields));
  if (!result.ok) throw invalidRequest(result.issues);
  return result.value;
}

/** Loads a workspace's resource by id; a malformed id is not found, like a missing one. */
export async function loadOr404<T>(what: string, id: string, load: (id: string) => Promise<T | undefined>): Promise<T> {
  const found = isUuid(id) ? await load(id) : undefined;
  if (!found) throw notFound(what);
  return found;
}
