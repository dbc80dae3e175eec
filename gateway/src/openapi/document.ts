// The OpenAPI 3.1 document of /api/v1, built from the operations the REST router serves: their
// paths, scopes, plan features, query and body schemas and answers. Nothing is written twice, so
// the document cannot drift from what the API does.
import { STATUS_CODES } from 'node:http';
import type { z } from 'zod';
import { idempotencyWindowMs, maxIdempotencyKeyLength } from '@voice/runtime/idempotency';
import { maxInputJsonDepth, maxPageLimit, defaultPageLimit } from '@voice/runtime/validation';
import { accessTokenSeconds } from '@voice/runtime/oauth';
import { maxBodyText } from '../middleware/json-body.js';
import { saneRequestIdText } from '../middleware/request-id.js';
import { statusOfReason } from '../errors/status-table.js';
import { toolsets, type Operation, type Toolset } from '../rest/operation.js';
import { Components, rateLimitHeaders, type ErrorAnswer } from './components.js';
import { exampleOf } from './example.js';
import { jsonSchemaOf, type JsonSchema } from './json-schema.js';
import { securitySchemes } from './security.js';
import { signatureDescription, webhooksSection } from './webhooks.js';

export const apiPrefix = '/api/v1';
export const documentVersion = '1.0.0';

export interface DocumentOptions {
  /** The public base address (a tenant's own domain on a white-label platform). */
  publicUrl: string;
  /** The platform's (or tenant's) name, for the title. */
  platformName?: string;
}

const tagNames: Record<Toolset, string> = {
  account: 'Account',
  assistants: 'Assistants',
  knowledge: 'Knowledge bases',
  settings: 'Settings and webhooks',
  calls: 'Calls',
  campaigns: 'Campaigns',
  telephony: 'Telephony',
  billing: 'Billing',
  platform: 'Platform users',
};

const tagDescriptions: Record<Toolset, string> = {
  account: 'Who the caller is, service-account API keys, the workspace’s members and its custom domain.',
  assistants: 'Assistants, their configuration history, the catalog of models, transcribers and voices they use, and the tools they call: HTTP APIs, MCP servers and built-in actions.',
  knowledge: 'Knowledge bases: documents from text, web pages and files (plain text, Markdown, HTML, PDF), ingested into chunks assistants search.',
  settings: 'What assistants remember of callers, and how they reach language models: the default model, the providers allowed, the workspace’s own provider keys; and the webhook endpoints that receive the workspace’s events, signed, with their delivery log.',
  calls: 'Calls an assistant makes and answers: placed with a workspace number, followed through their states, with their transcript, summary, analysis, events and the minutes and credits they were charged.',
  campaigns: 'Outbound campaigns: an assistant calling a list of leads from a pool of the workspace’s numbers, inside a calling window in each lead’s time zone, paced and with retries; their leads (added one at a time or imported in bulk, checked against the suppression list) and segments, saved filters over leads a campaign can target.',
  telephony: 'Phone numbers, carrier connections, A2P 10DLC campaigns, the SMS suppression list and SMS.',
  billing: 'The wallet’s balance in credits and minutes, the ledger and usage summaries. Amounts are exact decimal strings.',
  platform: 'White-label platforms: their end-users, the users’ tokens and credit transfers (plan feature `white_label`).',
};

const reasonMeanings: Record<string, string> = {
  invalid_request: `invalid body, query parameter or header; \`details\` names the fields (a body over ${maxBodyText} is \`413\`, an unsupported method \`405\` with \`Allow\`)`,
  unauthorized: 'missing, invalid, expired or revoked credential',
  forbidden: 'the credential lacks the scope, or the plan the feature',
  not_found: 'no such resource in this workspace (also for a malformed id)',
  conflict: 'conflicting state, or an `Idempotency-Key` reused with another body',
  revision_conflict: 'a stale `expected_revision`',
  rate_limited: 'the workspace exceeded its rate limit, or a limit its operation describes (codes sent to caller IDs); nothing was done, retry after `Retry-After` seconds',
  internal_error: 'unexpected error (`500`, naming the request id); `503` with `Retry-After` while a service is briefly unavailable',
  telephony_configuration_error: 'the sending number or its carrier set-up does not allow the request',
  destination_forbidden: 'the destination is suppressed or blocked',
  telephony_unavailable: 'the carrier is unreachable or failing, or the platform could not hold the price; nothing was sent or charged, retry after `Retry-After` seconds',
};

function infoDescription(): string {
  const errorRows = Object.entries(statusOfReason)
    .sort(([, a], [, b]) => a - b)
    .map(([code, status]) => `| ${status} | \`${code}\` | ${reasonMeanings[code] ?? ''} |`);
  return [
    'The REST API of the voice platform. Every path is relative to the server URL, which ends in `/api/v1`; a white-label',
    'platform serves the same paths on its own domain.',
    '',
    '## Authentication',
    '',
    'Every request sends `Authorization: Bearer <credential>`: a service-account API key (`svc_…`, for servers) or an OAuth 2.0',
    `access token (\`svc_at_…\`, authorization code flow with PKCE \`S256\`, ${accessTokenSeconds / 60} minutes, rotating refresh tokens). Each operation names`,
    'the scope it needs (`x-required-scope`); a `:write` scope covers the matching `:read`, and a key without scope restrictions',
    'may call everything. Some operations also need a plan feature (`x-required-feature`). A bad credential is `401` with a',
    '`WWW-Authenticate` challenge naming `/.well-known/oauth-protected-resource`; a missing scope or feature is `403`.',
    'Revoking a key, or removing, demoting or suspending a member, takes effect on the very next request. An OAuth access token',
    'works only at the resource it was issued for (RFC 8707): one for this API (`resource` = the origin, or none at all) here,',
    'one for `<origin>/mcp` only at the MCP endpoint; elsewhere it is `401` with `error="invalid_token"`. API keys work at both.',
    '',
    '## Browsers (CORS)',
    '',
    'A single-page app on another origin may call this API and the OAuth token, registration and revocation endpoints when the',
    'operator lists its origin (`VOICE_CORS_ORIGINS`); a preflight from any other origin is `403`. Bearer tokens only: no answer',
    'allows credentials (cookies). The OAuth metadata documents answer every origin. Answers expose `X-Request-Id`, the',
    '`RateLimit-*` headers, `Retry-After`, `Idempotent-Replayed`, `WWW-Authenticate` and `Location` to the page.',
    '',
    '## Errors',
    '',
    'Every failure answers `{"error": {"code", "message", "details"?}}`. `code` is stable and machine-readable; `details` lists',
    '`{field, issue}` for invalid requests. Messages never carry internal detail.',
    '',
    '| Status | Code | Meaning |',
    '|---|---|---|',
    ...errorRows,
    '',
    'An unknown path under `/api/v1` is `404 not_found`; a known path with another method is `405` with an `Allow` header.',
    '',
    '## Requests and answers',
    '',
    `Bodies are JSON objects (\`Content-Type: application/json\`, at most ${maxBodyText}, nested at most ${maxInputJsonDepth} levels). Unknown body fields and`,
    'unknown query parameters are `400`. Field names are snake_case, ids UUID v4, times RFC 3339 UTC with milliseconds',
    '(`2026-11-21T10:00:00.000Z`), and money exact decimal strings (credits with 4 places, minutes with 3). A create answers',
    '`201` with `{data}`, a read or update `200` with `{data}`, a delete `200` with `{data: {id, deleted: true}}`. Answers may',
    'gain fields; clients should ignore fields they do not know.',
    '',
    '## Pagination',
    '',
    `List operations take \`limit\` (1 to ${maxPageLimit}, default ${defaultPageLimit}) and \`offset\` (0 or more, default 0) and answer`,
    '`{data: [...], meta: {pagination: {limit, offset, total}}}`, newest first; `total` counts every match. Page until',
    '`offset + limit >= total`.',
    '',
    '## Rate limits',
    '',
    'Fair-use limits apply per workspace in a fixed window whose size depends on the plan. Every authenticated answer carries',
    '`RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds); beyond the limit the answer is `429` with',
    '`Retry-After` (seconds). Back off exponentially.',
    '',
    '## Idempotency',
    '',
    `Operations with an \`Idempotency-Key\` parameter (1 to ${maxIdempotencyKeyLength} characters) can be retried safely: the same key and body within ${idempotencyWindowMs / 3_600_000}`,
    'hours answers the first response again, with `Idempotent-Replayed: true`, and does nothing more; the same key with another',
    'body is `409 conflict`.',
    '',
    '## Request ids',
    '',
    `Every answer carries \`X-Request-Id\`: the client’s own when it sent a sane one (${saneRequestIdText}), else a`,
    'new one. Quote it when asking for support.',
    '',
    '## Webhooks',
    '',
    'Endpoints added with `POST /webhooks` receive the workspace’s events as POSTed JSON `{id, type, created_at, data}`',
    '(`webhooks` in this document lists each type’s body), `data` in the same curated view as the API’s own answers.',
    '',
    signatureDescription,
    '',
    '## Versioning',
    '',
    'The version is the path prefix `/api/v1`. Within it, operations and fields are only ever added.',
  ].join('\n');
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const pathParameterNames = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
const isIdName = (name: string) => name === 'id' || name.endsWith('_id');
const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An upper-case-first name for component schemas: listTools → ListTools. */
const componentName = (id: string, part: string) => `${id.charAt(0).toUpperCase()}${id.slice(1)}${part}`;

/** An example of `schema` that the operation's own zod schema accepts; none when the generator cannot make one. */
function validExample(json: JsonSchema, zodSchema: z.ZodType, components: Components): unknown {
  const example = exampleOf(json, components.schemas);
  return zodSchema.safeParse(example).success ? example : undefined;
}

function queryParameters(op: Operation<any, any>, components: Components): unknown[] {
  if (!op.query) return [];
  const json = jsonSchemaOf(op.query, 'input', componentName(op.doc.id, 'Query'), components.schemas);
  if (!isObject(json.properties)) throw new Error(`the query schema of ${op.doc.id} must be an object schema`);
  const required = new Set(Array.isArray(json.required) ? (json.required as string[]) : []);
  return Object.entries(json.properties).map(([name, schema]) => {
    // The page parameters arrive as strings; the API reads them as bounded integers.
    if (name === 'limit') return components.limit();
    if (name === 'offset') return components.offset();
    const { description, ...rest } = isObject(schema) ? schema : {};
    return { name, in: 'query', required: required.has(name), ...(typeof description === 'string' ? { description } : {}), schema: rest };
  });
}

function pathParameters(op: Operation<any, any>): unknown[] {
  return pathParameterNames(op.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    ...(isIdName(name)
      ? { description: 'A UUID v4; a malformed id answers `404 not_found`.', schema: { type: 'string', format: 'uuid' } }
      : { schema: { type: 'string' } }),
  }));
}

function requestBody(op: Operation<any, any>, components: Components) {
  if (!op.body) return undefined;
  const documented = op.doc.requestBody ?? op.body;
  const schema = jsonSchemaOf(documented, 'input', componentName(op.doc.id, 'Request'), components.schemas);
  const example = validExample(schema, documented, components);
  return {
    // Without a body the API reads `{}`; the body is required only when `{}` is not valid.
    required: !op.body.safeParse({}).success,
    content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
  };
}

/** The error answers an operation can give, by what it declares. */
function errorAnswersOf(op: Operation<any, any>): ErrorAnswer[] {
  const writes = op.method !== 'get';
  const takesBody = op.method === 'post' || op.method === 'patch';
  const answers: ErrorAnswer[] = [];
  // Every operation refuses unknown query parameters, so every one can answer 400.
  answers.push('InvalidRequest');
  answers.push('Unauthorized');
  if (op.scope || op.feature) answers.push('Forbidden');
  if (pathParameterNames(op.path).length > 0) answers.push('NotFound');
  if (writes) answers.push('Conflict');
  if (takesBody) answers.push('PayloadTooLarge');
  answers.push('RateLimited', 'InternalError', 'Unavailable');
  for (const declared of op.doc.errors ?? []) if (!answers.includes(declared)) answers.push(declared);
  return answers;
}

function description(op: Operation<any, any>): string {
  const lines = op.doc.description ? [op.doc.description, ''] : [];
  if (op.doc.deprecated) lines.unshift(`**Deprecated:** ${op.doc.deprecated}`, '');
  const write = op.scope?.endsWith(':read') ? `${op.scope.slice(0, -':read'.length)}:write` : undefined;
  lines.push(
    op.scope
      ? `**Scope:** \`${op.scope}\`${write ? ` (or \`${write}\`)` : ''}.`
      : '**Scope:** none; any valid credential may call it.',
  );
  if (op.feature) lines.push('', `**Plan feature:** \`${op.feature}\`.`);
  if (op.doc.mcp) lines.push('', `**MCP tool:** \`${op.doc.mcp.tool}\`.`);
  return lines.join('\n');
}

function operationObject(op: Operation<any, any>, components: Components): Record<string, unknown> {
  const status = op.doc.status ?? 200;
  const schema = jsonSchemaOf(op.doc.response, 'output', componentName(op.doc.id, 'Response'), components.schemas);
  const example = validExample(schema, op.doc.response, components);
  const responses: Record<string, unknown> = {
    [String(status)]: {
      description: STATUS_CODES[status] ?? 'Success',
      headers: components.headers(op.idempotent ? [...rateLimitHeaders, 'Idempotent-Replayed'] : rateLimitHeaders),
      content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
    },
  };
  for (const answer of errorAnswersOf(op)) {
    const { status: errorStatus, ref } = components.error(answer);
    responses[String(errorStatus)] = ref;
  }
  const parameters = [...pathParameters(op), ...queryParameters(op, components), ...(op.idempotent ? [components.idempotencyKey()] : [])];
  const body = requestBody(op, components);
  return {
    operationId: op.doc.id,
    summary: op.doc.summary,
    description: description(op),
    tags: [op.doc.toolset],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
    security: [{ bearerAuth: [] }, { oauth2: op.scope ? [op.scope] : [] }],
    ...(op.scope ? { 'x-required-scope': op.scope } : {}),
    ...(op.feature ? { 'x-required-feature': op.feature } : {}),
    ...(op.doc.mcp ? { 'x-mcp-tool': op.doc.mcp.tool } : {}),
    ...(op.doc.deprecated ? { deprecated: true } : {}),
  };
}

/** The OpenAPI 3.1.0 document of `operations`, served from `publicUrl`. */
export function openApiDocument(operations: readonly Operation<any, any>[], options: DocumentOptions): Record<string, unknown> {
  const components = new Components();
  const paths: Record<string, Record<string, unknown>> = {};
  const ids = new Set<string>();
  for (const op of operations) {
    if (ids.has(op.doc.id)) throw new Error(`two operations are named ${op.doc.id}`);
    ids.add(op.doc.id);
    const path = (paths[openApiPath(op.path)] ??= {});
    if (path[op.method]) throw new Error(`${op.method.toUpperCase()} ${op.path} is declared twice`);
    path[op.method] = operationObject(op, components);
  }
  const name = options.platformName ?? 'Voice platform';
  return {
    openapi: '3.1.0',
    info: {
      title: `${name} API`,
      version: documentVersion,
      summary: 'Assistants, tools, telephony, SMS, billing and white-label platforms over REST.',
      description: infoDescription(),
    },
    servers: [{ url: `${options.publicUrl}${apiPrefix}`, description: name }],
    tags: toolsets.map((toolset) => ({ name: toolset, 'x-displayName': tagNames[toolset], description: tagDescriptions[toolset] })),
    paths,
    webhooks: webhooksSection(components.schemas),
    components: components.toJSON(securitySchemes(options.publicUrl)),
  };
}
