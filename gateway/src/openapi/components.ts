// The document's shared pieces: the error envelope and the error answers, the response headers of
// every answer, and the pagination and Idempotency-Key parameters. Only what an operation refers to
// is emitted, so the document has no unused components.
import { z } from 'zod';
import { idempotencyWindowMs, maxIdempotencyKeyLength } from '@voice/runtime/idempotency';
import { typedPageFields } from '@voice/runtime/validation';
import { errorSchema } from '@voice/contracts/responses';
import { maxBodyText } from '../middleware/json-body.js';
import { saneRequestIdText } from '../middleware/request-id.js';
import { jsonSchemaOf, type JsonSchema, type SchemaComponents } from './json-schema.js';

type HeaderName = 'RateLimit-Limit' | 'RateLimit-Remaining' | 'RateLimit-Reset' | 'Retry-After' | 'X-Request-Id' | 'WWW-Authenticate' | 'Idempotent-Replayed';

const headers: Record<HeaderName, { description: string; required?: true; schema: JsonSchema }> = {
  'RateLimit-Limit': { description: 'Requests the workspace may make in the current window (by plan).', schema: { type: 'integer', minimum: 1 } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until the current window ends.', schema: { type: 'integer', minimum: 0 } },
  'Retry-After': { description: 'Seconds to wait before retrying.', required: true, schema: { type: 'integer', minimum: 0 } },
  'X-Request-Id': {
    required: true,
    description: `The request id: the one the client sent in \`X-Request-Id\` when it is ${saneRequestIdText}, else a new one. Quote it to support.`,
    schema: { type: 'string' },
  },
  'WWW-Authenticate': {
    description:
      'A Bearer challenge (RFC 6750). On `401` it names the protected resource metadata (RFC 9728): `Bearer realm="voice", error="invalid_token", resource_metadata="…"`; ' +
      'on a `403` for a missing scope it names the scope to ask for: `Bearer error="insufficient_scope", scope="…"`.',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer of an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** The headers every answer after authentication carries (the RateLimit ones only once the caller is known). */
export const rateLimitHeaders: HeaderName[] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Request-Id'];

export type ErrorAnswer = 'InvalidRequest' | 'Unauthorized' | 'Forbidden' | 'NotFound' | 'Conflict' | 'PayloadTooLarge' | 'RateLimited' | 'InternalError' | 'Unavailable';

interface ErrorAnswerSpec {
  status: number;
  description: string;
  code: string;
  message: string;
  details?: { field: string; issue: string }[];
  headers: HeaderName[];
}

export const errorAnswers: Record<ErrorAnswer, ErrorAnswerSpec> = {
  InvalidRequest: {
    status: 400,
    description: 'The body, a query parameter or a header is invalid (`invalid_request`); `details` names each bad field.',
    code: 'invalid_request',
    message: 'name: is required',
    details: [{ field: 'name', issue: 'is required' }],
    headers: rateLimitHeaders,
  },
  Unauthorized: {
    status: 401,
    description: 'The credential is missing, invalid, expired or revoked (`unauthorized`).',
    code: 'unauthorized',
    message: 'the credential is missing, invalid, expired or revoked',
    // A refused sign-in (POST /platform/users/login) comes after the caller's own key passed, so it is counted.
    headers: ['WWW-Authenticate', ...rateLimitHeaders],
  },
  Forbidden: {
    status: 403,
    description:
      'The credential lacks the scope (with `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"`), the plan lacks the feature, ' +
      'or the action is not allowed (`forbidden`; `destination_forbidden` for a blocked destination).',
    code: 'forbidden',
    message: 'this credential lacks the settings:write scope',
    headers: [...rateLimitHeaders, 'WWW-Authenticate'],
  },
  NotFound: {
    status: 404,
    description: 'No such resource in this workspace, or a malformed id (`not_found`).',
    code: 'not_found',
    message: 'not found',
    headers: rateLimitHeaders,
  },
  Conflict: {
    status: 409,
    description:
      'The resource is in a conflicting state, already exists, or an `Idempotency-Key` was reused with another body (`conflict`); ' +
      'a stale `expected_revision` (`revision_conflict`); a number or carrier set-up that does not allow the request (`telephony_configuration_error`).',
    code: 'conflict',
    message: 'the resource is in a conflicting state',
    headers: rateLimitHeaders,
  },
  PayloadTooLarge: {
    status: 413,
    description: `The body is larger than ${maxBodyText} (\`invalid_request\`).`,
    code: 'invalid_request',
    message: `the request body is larger than ${maxBodyText}`,
    headers: rateLimitHeaders,
  },
  RateLimited: {
    status: 429,
    description: 'The workspace exceeded its fair-use rate limit, or a limit the operation’s description names (`rate_limited`); retry after `Retry-After` seconds.',
    code: 'rate_limited',
    message: 'rate limit of 600 requests per 60 s exceeded; retry after 12 s',
    headers: [...rateLimitHeaders, 'Retry-After'],
  },
  InternalError: {
    status: 500,
    description: 'An unexpected error (`internal_error`); the message names only the request id.',
    code: 'internal_error',
    message: 'internal error (request 6f1c2a4e-8b3d-4f5a-9c7e-1d2b3a4c5e6f)',
    headers: rateLimitHeaders,
  },
  Unavailable: {
    status: 503,
    description: 'A platform service or the carrier is briefly unavailable (`internal_error`, or `telephony_unavailable`); retry after `Retry-After` seconds.',
    code: 'internal_error',
    message: 'a platform service is temporarily unavailable; retry shortly',
    headers: [...rateLimitHeaders, 'Retry-After'],
  },
};

const headerRef = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });


/** A page parameter, from the typed field MCP tools use too: one definition of its bounds and text. */
function pageParameter(name: keyof typeof typedPageFields) {
  const { $schema: _dialect, description, ...schema } = z.toJSONSchema(typedPageFields[name], { io: 'input' }) as Record<string, unknown>;
  return { name, in: 'query', required: false, description, schema };
}

export class Components {
  readonly schemas: SchemaComponents = {};
  private readonly responses: Record<string, unknown> = {};
  private readonly parameters: Record<string, unknown> = {};
  private readonly usedHeaders = new Set<HeaderName>();

  /** Header objects of an answer, by reference. */
  headers(names: readonly HeaderName[]): Record<string, unknown> {
    for (const name of names) this.usedHeaders.add(name);
    return Object.fromEntries(names.map((name) => [name, headerRef(name)]));
  }

  /** A reference to one of the error answers, defined on first use. */
  error(name: ErrorAnswer): { status: number; ref: { $ref: string } } {
    const spec = errorAnswers[name];
    if (!this.responses[name]) {
      this.schemas.Error ??= jsonSchemaOf(errorSchema, 'output', 'Error', this.schemas);
      const error: Record<string, unknown> = { code: spec.code, message: spec.message };
      if (spec.details) error.details = spec.details;
      this.responses[name] = {
        description: spec.description,
        headers: this.headers(spec.headers),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: { error } } },
      };
    }
    return { status: spec.status, ref: { $ref: `#/components/responses/${name}` } };
  }

  limit() {
    this.parameters.Limit ??= pageParameter('limit');
    return { $ref: '#/components/parameters/Limit' };
  }

  offset() {
    this.parameters.Offset ??= pageParameter('offset');
    return { $ref: '#/components/parameters/Offset' };
  }

  idempotencyKey() {
    this.parameters.IdempotencyKey ??= {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        `Makes a retry safe: a request with the same key and body within ${idempotencyWindowMs / 3_600_000} hours answers the first response again (with ` +
        '`Idempotent-Replayed: true`) and does nothing more; the same key with another body is `409 conflict`.',
      schema: { type: 'string', minLength: 1, maxLength: maxIdempotencyKeyLength },
      example: '5c1d7f0e-order-4711',
    };
    return { $ref: '#/components/parameters/IdempotencyKey' };
  }

  /** The components object, with only what was used. */
  toJSON(securitySchemes: object): object {
    const usedHeaders = Object.fromEntries([...this.usedHeaders].map((name) => [name, headers[name]]));
    const responses = Object.fromEntries(Object.entries(this.responses).sort(([a], [b]) => errorAnswers[a as ErrorAnswer].status - errorAnswers[b as ErrorAnswer].status));
    const components: Record<string, unknown> = { securitySchemes, schemas: this.schemas, responses, parameters: this.parameters, headers: usedHeaders };
    return Object.fromEntries(Object.entries(components).filter(([, value]) => Object.keys(value as object).length > 0));
  }
}
