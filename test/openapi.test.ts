// The OpenAPI document of /api/v1, fetched from the running platform: it describes each operation
// completely (openapi-route-table.test.ts checks that it lists every route served), and the live API agrees with it:
// bodies it refuses are the ones the documented schemas refuse, and its answers match their schemas.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { canonicalScopes } from '@voice/runtime/access';
import { errorReasons } from '@voice/runtime/errors';
import { expectDocumented } from './support/openapi-conformance.js';
import { methods, operationsOf, type Json } from './support/openapi-routes.js';
import { fieldsOf } from './support/api-client.js';
import { startTestPlatform, uniqueEmail, type TestPlatform } from './support/platform.js';


const toolsets = ['account', 'assistants', 'knowledge', 'settings', 'calls', 'campaigns', 'telephony', 'billing', 'platform'];

let platform: TestPlatform;
let doc: Json;
let ajv: Ajv2020;
const docId = 'https://openapi.test/api/v1/openapi.json';

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** A validator of the schema at a place in the document ($refs into components resolve). */
function validatorAt(...parts: string[]) {
  const validate = ajv.getSchema(`${docId}#/${pointer(...parts)}`);
  if (!validate) throw new Error(`no schema at ${parts.join(' ')}`);
  return validate;
}

const requestSchema = (method: string, path: string) => validatorAt('paths', path, method, 'requestBody', 'content', 'application/json', 'schema');
const responseSchema = (method: string, path: string, status: number) =>
  validatorAt('paths', path, method, 'responses', String(status), 'content', 'application/json', 'schema');

beforeAll(async () => {
  platform = await startTestPlatform();
  doc = (await (await fetch(`${platform.running.url}/api/v1/openapi.json`)).json()) as Json;
  // OpenAPI keywords (example, x-*) are annotations for a JSON Schema validator.
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: docId });
}, 60_000);

afterAll(async () => {
  await platform?.close();
});

describe('the document', () => {
  test('is public, cacheable OpenAPI 3.1.0, version 1.0.0, served for this address', async () => {
    const answer = await fetch(`${platform.running.url}/api/v1/openapi.json`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.info.title).toBe('Voice platform API');
    expect(doc.info.description).toMatch(/## Authentication[\s\S]*## Errors[\s\S]*## Pagination[\s\S]*## Rate limits[\s\S]*## Idempotency/);
    expect(doc.servers).toEqual([{ url: `${platform.running.url}/api/v1`, description: 'Voice platform' }]);
    expect((doc.tags as Json[]).map((tag) => tag.name)).toEqual(toolsets);
    for (const tag of doc.tags as Json[]) expect(tag.description).toEqual(expect.any(String));

    const post = await fetch(`${platform.running.url}/api/v1/openapi.json`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  test('describes both credentials, with every canonical scope', () => {
    const { bearerAuth, oauth2 } = doc.components.securitySchemes;
    expect(bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(bearerAuth.description).toContain('svc_');
    expect(bearerAuth.description).toContain('svc_at_');
    const flow = oauth2.flows.authorizationCode;
    expect(flow.authorizationUrl).toBe(`${platform.running.url}/oauth/authorize`);
    expect(flow.tokenUrl).toBe(`${platform.running.url}/oauth/token`);
    expect(oauth2.description).toContain('S256');
    expect(Object.keys(flow.scopes).sort()).toEqual([...canonicalScopes].sort());
    for (const description of Object.values(flow.scopes)) expect(description).toEqual(expect.any(String));
  });
});

describe('coverage', () => {
  test('each documented route is live: it asks for a credential, and other methods get 405 with the documented ones', async () => {
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      const concrete = path.replace(/\{[^}]+\}/g, '3f2b8c4e-9a1d-4e7b-8c2f-5d6a7b8c9d0e');
      const allowed = methods.filter((method) => item[method]).map((method) => method.toUpperCase());
      for (const method of allowed) {
        const answer = await fetch(`${platform.running.url}/api/v1${concrete}`, { method });
        expect([`${method} ${path}`, answer.status]).toEqual([`${method} ${path}`, 401]);
      }
      const other = await fetch(`${platform.running.url}/api/v1${concrete}`, { method: 'PUT' });
      expect([path, other.status]).toEqual([path, 405]);
      const allow = (other.headers.get('allow') ?? '').split(', ').filter((verb) => verb !== 'HEAD').sort();
      expect([path, allow]).toEqual([path, [...allowed].sort()]);
    }
  });
});

describe('each operation', () => {
  test('has an id, summary, tag, security, a success schema with a valid example, and its error answers', () => {
    const ids = new Set<string>();
    for (const [route, op] of operationsOf(doc)) {
      const [, path] = route.split(' ') as [string, string];
      const context = `${route}: `;
      expect(context + typeof op.operationId).toBe(`${context}string`);
      expect(ids.has(op.operationId)).toBe(false);
      ids.add(op.operationId);
      expect(context + (op.summary?.length > 0)).toBe(`${context}true`);
      expect(op.tags).toHaveLength(1);
      expect(toolsets).toContain(op.tags[0]);

      const scope = op['x-required-scope'] as string | undefined;
      expect([route, op.security]).toEqual([route, [{ bearerAuth: [] }, { oauth2: scope ? [scope] : [] }]]);
      if (scope) expect(canonicalScopes).toContain(scope);
      else expect(route).toBe('GET /me');

      const successes = Object.keys(op.responses).filter((status) => status.startsWith('2'));
      expect([route, successes.length]).toEqual([route, 1]);
      const success = op.responses[successes[0]!];
      const media = success.content['application/json'];
      expect([route, typeof media.schema]).toEqual([route, 'object']);
      expect([route, media.example === undefined]).toEqual([route, false]);
      const validate = responseSchema(route.split(' ')[0]!.toLowerCase(), path, Number(successes[0]));
      expect([route, validate(media.example), validate.errors ?? null]).toEqual([route, true, null]);
      expect(Object.keys(success.headers)).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Request-Id']));

      const errors = Object.keys(op.responses).filter((status) => !status.startsWith('2'));
      expect([route, errors]).toEqual([route, expect.arrayContaining(['401', '429', '500', '503'])]);
      if (scope || op['x-required-feature']) expect([route, errors]).toEqual([route, expect.arrayContaining(['403'])]);
      if (path.includes('{')) expect([route, errors]).toEqual([route, expect.arrayContaining(['404'])]);
      if (op.requestBody || (op.parameters ?? []).some((p: Json) => p.$ref || p.in === 'query')) {
        expect([route, errors]).toEqual([route, expect.arrayContaining(['400'])]);
      }
      if (!route.startsWith('GET ')) expect([route, errors]).toEqual([route, expect.arrayContaining(['409'])]);
      for (const status of errors) {
        const ref: string = op.responses[status].$ref;
        const answer = doc.components.responses[ref.replace('#/components/responses/', '')];
        expect(answer.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
        expect(answer.headers['X-Request-Id']).toBeDefined();
        if (status === '429' || status === '503') expect(answer.headers['Retry-After']).toBeDefined();
      }
      for (const match of path.matchAll(/\{([^}]+)\}/g)) {
        const parameter = (op.parameters as Json[]).find((p) => p.in === 'path' && p.name === match[1]);
        expect([route, parameter?.required]).toEqual([route, true]);
      }
      if (op.requestBody?.content['application/json'].example !== undefined) {
        const body = requestSchema(route.split(' ')[0]!.toLowerCase(), path);
        expect([route, body(op.requestBody.content['application/json'].example), body.errors ?? null]).toEqual([route, true, null]);
      }
    }
  });

  test('documents the page parameters as bounded integers and Idempotency-Key where it is honoured', () => {
    const { Limit, Offset } = doc.components.parameters;
    expect(Limit).toMatchObject({ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } });
    expect(Offset).toMatchObject({ name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } });
    const listTransactions = doc.paths['/transactions'].get;
    expect(listTransactions.parameters).toEqual(expect.arrayContaining([{ $ref: '#/components/parameters/Limit' }, { $ref: '#/components/parameters/Offset' }]));
    const idempotent = operationsOf(doc)
      .filter(([, op]) => (op.parameters ?? []).some((p: Json) => p.$ref === '#/components/parameters/IdempotencyKey'))
      .map(([route]) => route);
    // API.md part 1: POST /sms/send, POST /tools and the platform credit transfer honour the key.
    expect(idempotent).toEqual(expect.arrayContaining(['POST /tools', 'POST /sms/send', 'POST /platform/users/{user_id}/balance']));
  });
});

describe('the request rules and resources', () => {
  const bodyOf = (method: string, path: string) => doc.paths[path][method].requestBody.content['application/json'].schema;

  test('every resource is a named component, and Error.code lists exactly the public error codes (the status table’s reasons)', () => {
    const schemas = doc.components.schemas as Json;
    for (const name of ['ApiTool', 'McpTool', 'BuiltinTool', 'Assistant', 'AssistantVersion', 'ApiKey', 'Member', 'PhoneNumber', 'CarrierConnection', 'A2pCampaign', 'SmsMessage', 'Balance', 'Transaction', 'CustomDomain', 'PlatformUser']) {
      expect([name, schemas[name]?.type]).toEqual([name, 'object']);
    }
    // A tool's answer is one schema per type too, chosen by type.
    expect(schemas.Tool.discriminator.mapping).toEqual({ api: '#/components/schemas/ApiTool', mcp: '#/components/schemas/McpTool', builtin: '#/components/schemas/BuiltinTool' });
    expect(schemas.McpTool.properties.config).toMatchObject({ $ref: '#/components/schemas/McpToolConfig' });
    expect(doc.paths['/tools/{id}'].get.responses['200'].content['application/json'].schema.properties.data).toEqual({ $ref: '#/components/schemas/Tool' });
    expect(doc.paths['/tools'].get.responses['200'].content['application/json'].schema.properties.data.items).toEqual({ $ref: '#/components/schemas/Tool' });
    expect([...schemas.Error.properties.error.properties.code.enum].sort()).toEqual([...errorReasons].sort());
  });

  test('ids in bodies are uuids, e-mails e-mails, and passwords 10 to 200 characters', () => {
    expect(bodyOf('post', '/sms/send').properties.from_number_id).toMatchObject({ type: 'string', format: 'uuid' });
    expect(bodyOf('post', '/phone-numbers/import').properties.carrier_connection_id).toMatchObject({ format: 'uuid' });
    expect(bodyOf('post', '/a2p-campaigns').properties.carrier_connection_id).toMatchObject({ format: 'uuid' });
    expect(bodyOf('post', '/workspace/members').properties.email).toMatchObject({ format: 'email', maxLength: 254 });
    expect(bodyOf('post', '/platform/users').properties.email).toMatchObject({ format: 'email', maxLength: 254 });
    expect(bodyOf('post', '/platform/users').properties.password).toMatchObject({ minLength: 10, maxLength: 200 });
  });

  test('a tool’s config is one schema per type, chosen by type', () => {
    const create = bodyOf('post', '/tools');
    expect(create.discriminator).toEqual({
      propertyName: 'type',
      mapping: {
        api: '#/components/schemas/CreateApiToolRequest',
        mcp: '#/components/schemas/CreateMcpToolRequest',
        builtin: '#/components/schemas/CreateBuiltinToolRequest',
      },
    });
    expect(create.oneOf).toHaveLength(3);
    const schemas = doc.components.schemas as Json;
    expect(schemas.CreateMcpToolRequest.properties.config).toEqual({ $ref: '#/components/schemas/McpToolConfigInput' });
    expect(schemas.McpToolConfigInput.properties.auth_type.enum).toEqual(['none', 'bearer', 'header']);
    expect(bodyOf('patch', '/tools/{id}').properties.config.anyOf).toHaveLength(3);
  });
});

describe('the live API agrees with the document', () => {
  test('POST /api-keys: the bodies the schema refuses are the ones the API refuses', async () => {
    const valid = requestSchema('post', '/api-keys');
    const cases: [unknown, boolean][] = [
      [{ name: 'ci', scopes: ['assistants:read'] }, true],
      [{ scopes: ['assistants:read'] }, false],
      [{ name: 'ci' }, false],
      [{ name: 'ci', scopes: [] }, false],
      [{ name: 'ci', scopes: 'assistants:read' }, false],
      [{ name: 'ci', scopes: ['assistants:read'], extra: true }, false],
    ];
    for (const [body, accepted] of cases) {
      const answer = await platform.api.post('/api-keys', platform.rootKey, body);
      expect([body, valid(body), answer.status === 400]).toEqual([body, accepted, !accepted]);
    }
  });

  test('POST /tools: a missing type, an unknown field or a config of another type is refused by both', async () => {
    const valid = requestSchema('post', '/tools');
    const cases: [unknown, boolean][] = [
      [{ name: 'lookup_order', description: 'x' }, false],
      [{ name: 'lookup_order', type: 'api', config: { url: 'https://orders.example.com/{id}' }, colour: 'red' }, false],
      [{ name: 'lookup_order', type: 'teleport', config: {} }, false],
      // A config of another type: the document's per-type schema and the service refuse it alike.
      [{ name: 'lookup_order', type: 'api', config: { url: 'https://mcp.example/mcp', auth_type: 'none' } }, false],
      [{ name: 'lookup_order', type: 'mcp', config: { url: 'https://mcp.example/mcp', auth_type: 'none' } }, true],
    ];
    for (const [body, accepted] of cases) {
      const answer = await platform.api.post('/tools', platform.rootKey, body);
      expect([body, valid(body), answer.status === 400]).toEqual([body, accepted, !accepted]);
    }
  });

  test('POST /platform/users and POST /sms/send: a short password, a malformed e-mail or id is refused by both', async () => {
    const register = requestSchema('post', '/platform/users');
    for (const [body, accepted] of [
      [{ email: uniqueEmail('schema'), name: 'Ada', password: 'correct horse battery' }, true],
      [{ email: uniqueEmail('schema'), name: 'Ada', password: 'short' }, false],
      [{ email: 'not-an-address', name: 'Ada', password: 'correct horse battery' }, false],
    ] as const) {
      const answer = await platform.api.post('/platform/users', platform.rootKey, body);
      expect([body, register(body), answer.status]).toEqual([body, accepted, accepted ? 201 : 400]);
    }
    const send = requestSchema('post', '/sms/send');
    const body = { from_number_id: 'number-1', to: '+14155550123', body: 'hi' };
    const answer = await platform.api.post('/sms/send', platform.rootKey, body);
    expect([send(body), answer.status, fieldsOf(answer)]).toEqual([false, 400, ['from_number_id']]);
  });

  test('GET /transactions: limit and offset out of their documented ranges are refused', async () => {
    const limit = ajv.compile({ ...doc.components.parameters.Limit.schema, $id: undefined });
    const offset = ajv.compile({ ...doc.components.parameters.Offset.schema, $id: undefined });
    for (const [query, accepted] of [
      ['limit=1', true],
      ['limit=200&offset=0', true],
      ['limit=0', false],
      ['limit=201', false],
      ['offset=-1', false],
    ] as const) {
      const params = new URLSearchParams(query);
      const documented = (!params.has('limit') || limit(Number(params.get('limit')))) && (!params.has('offset') || offset(Number(params.get('offset'))));
      const answer = await platform.api.get(`/transactions?${query}`, platform.rootKey);
      expect([query, documented, answer.status]).toEqual([query, accepted, accepted ? 200 : 400]);
    }
  });

  test('answers of the live API match their documented schemas', async () => {
    const key = platform.rootKey;
    const me = await platform.api.get('/me', key);
    const balance = await platform.api.get('/balance', key);
    const transactions = await platform.api.get('/transactions?limit=5', key);
    const usage = await platform.api.get('/usage/summary', key);
    const created = await platform.api.post('/api-keys', key, { name: 'schema check', scopes: ['billing:read'] });
    const keys = await platform.api.get('/api-keys', key);
    const createdId = (created.body as { data: { id: string } }).data.id;
    const revoked = await platform.api.delete(`/api-keys/${createdId}`, key);
    const members = await platform.api.get('/workspace/members', key);
    const checks: [string, string, number, { status: number; body: unknown }][] = [
      ['get', '/me', 200, me],
      ['get', '/balance', 200, balance],
      ['get', '/transactions', 200, transactions],
      ['get', '/usage/summary', 200, usage],
      ['post', '/api-keys', 201, created],
      ['get', '/api-keys', 200, keys],
      ['delete', '/api-keys/{id}', 200, revoked],
      ['get', '/workspace/members', 200, members],
    ];
    for (const [method, path, status, answer] of checks) {
      expect([method, path, answer.status]).toEqual([method, path, status]);
      const validate = responseSchema(method, path, status);
      expect([method, path, validate(answer.body), validate.errors ?? null]).toEqual([method, path, true, null]);
    }
    // An error answer matches the Error schema too.
    const missing = await platform.api.get('/tools/3f2b8c4e-9a1d-4e7b-8c2f-5d6a7b8c9d0e', key);
    expect(missing.status).toBe(404);
    const error = validatorAt('components', 'schemas', 'Error');
    expect(error(missing.body)).toBe(true);
  });
});

describe('the check every end-to-end answer passes (test/support/openapi-conformance.ts)', () => {
  const toolId = '3f2b8c4e-9a1d-4e7b-8c2f-5d6a7b8c9d0e';
  const headers = { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r-1' };
  const notFound = JSON.stringify({ error: { code: 'not_found', message: 'not found' } });
  const check = (answer: { method?: string; path?: string; status?: number; headers?: Record<string, string>; text?: string }) =>
    expectDocumented(platform.running.url, { method: 'GET', path: `/api/v1/tools/${toolId}`, status: 404, headers, text: notFound, ...answer });

  test('accepts a documented answer', async () => {
    await expect(check({})).resolves.toBeUndefined();
  });

  test('refuses a status, a body, a header or a route the document does not describe', async () => {
    await expect(check({ status: 418 })).rejects.toThrow('GET /tools/{id} → 418: the document declares no such answer');
    await expect(check({ text: JSON.stringify({ error: { code: 'not_found' } }) })).rejects.toThrow("must have required property 'message'");
    await expect(check({ text: '' })).rejects.toThrow('the body is not JSON');
    await expect(check({ headers: { ...headers, 'content-type': 'text/html' } })).rejects.toThrow('content-type is "text/html", not application/json');
    await expect(check({ headers: { 'content-type': 'application/json' } })).rejects.toThrow('the required header X-Request-Id is missing');
    await expect(check({ headers: { ...headers, 'retry-after': '3' } })).rejects.toThrow('carries retry-after, which the document does not declare');
    await expect(check({ status: 429, headers: { ...headers, 'retry-after': 'soon' } })).rejects.toThrow('header Retry-After: "soon" value must be integer');
    await expect(check({ path: '/api/v1/tools/unknown/part', status: 200 })).rejects.toThrow('is not in the document, yet answered 200');
  });

  test('leaves answers outside /api/v1 and the document itself alone', async () => {
    await expect(check({ path: '/oauth/token', status: 418 })).resolves.toBeUndefined();
    await expect(check({ path: '/api/v1/openapi.json', status: 200 })).resolves.toBeUndefined();
  });
});
