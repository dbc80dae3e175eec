// A tool's input is its operation's path parameters, query and body side by side in one object:
// the JSON Schema offered to MCP clients is generated from the same zod schemas REST validates
// with, and a call's arguments are split back into those parts and validated by them.
import { z } from 'zod';
import { isValidIdempotencyKey } from '@voice/runtime/idempotency';
import { typedPageFields } from '@voice/runtime/validation';
import { badRequest } from '../errors/http-error.js';
import type { Operation } from '../rest/operation.js';
import { idempotencyKeyIssue, parseBody } from '../rest/validate.js';

/** The argument that carries an Idempotency-Key, for operations that honour one. */
export const idempotencyKeyArgument = 'idempotency_key';

export const pathParamsOf = (path: string): string[] => [...path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]!);

const shapeOf = (schema: z.ZodType | undefined): z.ZodRawShape => (schema instanceof z.ZodObject ? schema.shape : {});

const isBooleanText = (schema: z.ZodType): boolean => {
  const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  return inner instanceof z.ZodEnum && [...inner.options].sort().join() === 'false,true';
};

/**
 * A query field as a tool sends it: a query string carries numbers and booleans as text, a tool sends
 * them typed (splitArguments turns them back into text for the query's own schema).
 */
function typedQueryField(name: string, schema: z.ZodType): z.ZodType {
  if (name === 'limit' || name === 'offset') return typedPageFields[name];
  if (isBooleanText(schema)) return schema.description ? z.boolean().optional().describe(schema.description) : z.boolean().optional();
  return schema;
}

/** The whole input as one zod object (for its JSON Schema). */
function inputObject(op: Operation<any, any>): z.ZodObject {
  const params = Object.fromEntries(pathParamsOf(op.path).map((name) => [name, z.string().describe(`the ${name} of the ${op.doc.toolset} resource`)]));
  const query = Object.fromEntries(Object.entries(shapeOf(op.query)).map(([name, schema]) => [name, typedQueryField(name, schema as z.ZodType)]));
  const idempotency = op.idempotent
    ? { [idempotencyKeyArgument]: z.string().min(1).max(255).optional().describe('a retry with the same key and input returns the first answer and does nothing again') }
    : {};
  return z.strictObject({ ...params, ...query, ...shapeOf(op.body), ...idempotency });
}

/** The tool's inputSchema: JSON Schema of what the operation accepts (as input, before transforms). */
export function inputSchemaOf(op: Operation<any, any>): { type: 'object'; [key: string]: unknown } {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(inputObject(op), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...schema, type: 'object' };
}

export interface SplitInput {
  params: Record<string, string>;
  query: unknown;
  body: unknown;
  idempotencyKey: string;
}

/** The arguments as the operation's parts, each validated by the operation's own schema. */
export function splitArguments(op: Operation<any, any>, args: Record<string, unknown>): SplitInput {
  const paramNames = pathParamsOf(op.path);
  const queryNames = new Set(Object.keys(shapeOf(op.query)));
  const bodyNames = new Set(Object.keys(shapeOf(op.body)));
  const params: Record<string, string> = {};
  const query: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  const issues = [];
  let idempotencyKey = '';
  for (const [name, value] of Object.entries(args)) {
    if (paramNames.includes(name)) {
      if (typeof value === 'string') params[name] = value;
      else issues.push({ field: name, issue: 'must be a string' });
    } else if (queryNames.has(name)) {
      // Query parameters arrive as strings over HTTP; a tool may send numbers and booleans.
      query[name] = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
    } else if (op.idempotent && name === idempotencyKeyArgument) {
      if (typeof value === 'string' && isValidIdempotencyKey(value)) idempotencyKey = value;
      else issues.push({ field: name, issue: idempotencyKeyIssue });
    } else if (bodyNames.has(name) || (op.body && !(op.body instanceof z.ZodObject))) {
      body[name] = value;
    } else {
      issues.push({ field: name, issue: 'is not a field of this tool' });
    }
  }
  for (const name of paramNames) if (params[name] === undefined && !issues.some((i) => i.field === name)) issues.push({ field: name, issue: 'is required' });
  if (issues.length > 0) throw badRequest(issues);
  return {
    params,
    query: op.query ? parseBody(op.query, query) : undefined,
    body: op.body ? parseBody(op.body, body) : undefined,
    idempotencyKey,
  };
}
