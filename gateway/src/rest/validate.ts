// Request validation for the REST router and handlers: the schema decides, a 400 names every bad field.
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { z } from 'zod';
import { isValidIdempotencyKey, maxIdempotencyKeyLength } from '@voice/runtime/idempotency';
import { parsePage, validate, type Page } from '@voice/runtime/validation';
import type { Request } from 'express';
import { badRequest } from '../errors/http-error.js';

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = validate(schema, body);
  if (!result.ok) throw badRequest(result.issues);
  return result.value;
}

/** The query of an operation that declares none: empty. */
export const noQuerySchema = z.strictObject({});

export function parseQuery<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  const result = validate(schema, req.query);
  if (!result.ok) throw badRequest(result.issues);
  return result.value;
}

export function pageOf(query: { limit?: unknown; offset?: unknown }): Page {
  const parsed = parsePage(query);
  if (!parsed.ok) throw badRequest([{ field: parsed.field, issue: parsed.issue }]);
  return parsed.page;
}

/** The Idempotency-Key header, validated; empty when absent. */
/** What is wrong with an invalid idempotency key, however it came (header or MCP argument). */
export const idempotencyKeyIssue = `must be 1 to ${maxIdempotencyKeyLength} printable characters`;

export function idempotencyKeyOf(req: Request): string {
  const key = req.get('idempotency-key');
  if (key === undefined) return '';
  if (!isValidIdempotencyKey(key)) throw badRequest([{ field: 'Idempotency-Key', issue: idempotencyKeyIssue }]);
  return key;
}

/** A validated RFC 3339 query value as the Timestamp a filter takes; undefined when the query had none. */
export const timestampOf = (value: string | undefined) => (value === undefined ? undefined : timestampFromDate(new Date(value)));
