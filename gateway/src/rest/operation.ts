// An operation of the public API, declared once: method and path, scope and plan feature, the
// schemas of its query and body, and what it answers. The REST router serves it, the OpenAPI
// document describes it, and the MCP endpoint offers it as a tool, all from this one declaration.
import type { z } from 'zod';
import type { Feature } from '@voice/runtime/access';
import type { AuthContext } from '../auth/auth-context.js';
import type { ErrorAnswer } from '../openapi/components.js';

export type Method = 'get' | 'post' | 'patch' | 'delete';

/** Groups of operations: OpenAPI tags, and the MCP toolsets of `?toolsets=`. */
export const toolsets = ['account', 'assistants', 'knowledge', 'settings', 'calls', 'campaigns', 'telephony', 'billing', 'platform'] as const;
export type Toolset = (typeof toolsets)[number];

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
}

/** The MCP annotations of each kind of tool (SPEC.md 4.3), defined once so every tool of a kind says the same. */
export const toolHints = {
  /** Reads change nothing. */
  read: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  /** Creates, sends, transfers and token issues: each call does it again. */
  create: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  /** Updates and verifications: the same call twice leaves the same state. */
  update: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  /** Deletes, revocations, releases and logouts: something is gone, once. */
  remove: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
} as const satisfies Record<string, ToolAnnotations>;

/** The parameter names of an Express path: `/tools/:id/test` → `'id'`. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

export interface OperationDoc<R extends z.ZodType = z.ZodType> {
  /** The OpenAPI operationId. */
  id: string;
  summary: string;
  description?: string;
  toolset: Toolset;
  /** The JSON of the success answer; the handler's reply body is typed by it. */
  response: R;
  /**
   * The body as the document shows it, when a service checks more of it than `body` does (a tool's
   * `config` by its `type`): built from the same schemas, so it states each rule where it lives.
   */
  requestBody?: z.ZodType;
  /** The success status; 200 unless said. */
  status?: number;
  /** Set on a legacy operation kept for old clients: says what replaces it (OpenAPI `deprecated`, and the MCP tool's description). */
  deprecated?: string;
  /** The MCP tool of this capability (SPEC.md 4.3 names), when it is one. */
  mcp?: { tool: string; annotations: ToolAnnotations };
  /**
   * Error answers beyond those the declaration implies: `NotFound` for an operation without a path
   * id that still answers 404 (an id in the body that names nothing, a singleton not configured).
   */
  errors?: readonly ErrorAnswer[];
}

export interface Operation<Q = unknown, B = unknown, P extends string = string, R extends z.ZodType = z.ZodType> {
  method: Method;
  /** Express syntax: `/tools/:id`. */
  path: P;
  /** The scope needed; omitted only where any credential may call (GET /me). */
  scope?: string;
  feature?: Feature;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Honours the Idempotency-Key header. */
  idempotent?: boolean;
  doc: OperationDoc<R>;
  handle(call: OperationCall<Q, B, P>): Promise<Reply<z.output<R>>>;
}

/** One call of an operation, however it arrived (REST or MCP), already authenticated and validated. */
export interface OperationCall<Q = unknown, B = unknown, P extends string = string> {
  /** The path's parameters by name, each a string. */
  params: Record<PathParams<P>, string>;
  query: Q;
  body: B;
  /** Empty when none was sent. */
  idempotencyKey: string;
  auth: AuthContext;
  requestId: string;
  /** Signed options for calls to the services, on behalf of this caller. */
  options: { headers: Record<string, string> };
}

export interface Reply<T = unknown> {
  status?: number;
  body: T;
  headers?: Record<string, string>;
}

/** Declares an operation with its query and body types inferred from the schemas. */
export const operation = <Q = undefined, B = undefined, P extends string = string, R extends z.ZodType = z.ZodType>(
  declared: Operation<Q, B, P, R>,
): Operation<Q, B, P, R> => declared;

/** The headers of an idempotent operation's answer: `Idempotent-Replayed: true` when it repeats the first. */
export const replayHeaders = (replayed: boolean): Record<string, string> => (replayed ? { 'Idempotent-Replayed': 'true' } : {});
