// Hostile input against everything the gateway serves (issue 12, done-when): every operation of the
// OpenAPI document the gateway serves, plus /mcp, the OAuth endpoints and the invitation pages, with
// malformed percent-encodings, malformed, oversized and wrongly typed bodies, wrong content types
// and content encodings, and odd headers. No answer is a 500, and each is in its endpoint's format:
// the envelope, the OAuth error, or (sign-in and invitation pages) an HTML page.
import { gzipSync } from 'node:zlib';
import { startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
let key: string;

beforeAll(async () => {
  platform = await startTestPlatform({ LOG_LEVEL: 'error' });
  key = (await platform.workspace({ plan: 'enterprise' })).key;
});
afterAll(() => platform.close());

/** /mcp answers the envelope, or a JSON-RPC error where the MCP transport itself refuses a message. */
type Format = 'envelope' | 'oauth' | 'page' | 'oauth-or-page' | 'mcp';

interface Attack {
  label: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  format: Format;
}

interface Answer {
  attack: Attack;
  status: number;
  contentType: string;
  text: string;
}

const malformedSegments = ['%FF%FE', '%E0%A4%A', 'abc%', '%C0%AF'];
const json = 'application/json';
const form = 'application/x-www-form-urlencoded';
const oversized = `{"name":"${'x'.repeat(1024 * 1024 + 16)}"}`;

/** Bodies and headers every endpoint that takes a body gets, in its own content type. */
function bodyAttacks(contentType: string, valid: string): Array<Pick<Attack, 'label' | 'headers' | 'body'>> {
  return [
    { label: 'truncated body', headers: { 'content-type': contentType }, body: contentType === json ? '{"name": "x", ' : 'a=%' },
    { label: 'oversized body', headers: { 'content-type': contentType }, body: contentType === json ? oversized : `a=${'x'.repeat(1024 * 1024 + 16)}` },
    { label: 'JSON array', headers: { 'content-type': json }, body: '[1,2,3]' },
    { label: 'JSON scalar', headers: { 'content-type': json }, body: '"text"' },
    { label: 'deeply nested JSON', headers: { 'content-type': json }, body: `${'['.repeat(5000)}${']'.repeat(5000)}` },
    { label: 'wrong content type', headers: { 'content-type': 'text/plain' }, body: valid },
    { label: 'form instead of JSON', headers: { 'content-type': form }, body: 'a=1&a=2&b[c]=3' },
    { label: 'Content-Encoding that does not match', headers: { 'content-type': contentType, 'content-encoding': 'gzip' }, body: valid },
    { label: 'unsupported Content-Encoding', headers: { 'content-type': contentType, 'content-encoding': 'compress' }, body: valid },
    { label: 'truncated gzip', headers: { 'content-type': contentType, 'content-encoding': 'gzip' }, body: gzipSync(valid).subarray(0, 12) },
    { label: 'charset other than UTF-8', headers: { 'content-type': `${contentType}; charset=latin1` }, body: valid },
    { label: 'form with 1,001 fields', headers: { 'content-type': form }, body: Array.from({ length: 1001 }, (_, i) => `f${i}=x`).join('&') },
  ];
}

/** Odd headers every endpoint gets. */
const headerAttacks: Array<Pick<Attack, 'label' | 'headers'>> = [
  { label: 'garbage bearer', headers: { authorization: `Bearer ${'\u00ff'.repeat(3)}svc_%00` } },
  { label: 'overlong bearer', headers: { authorization: `Bearer svc_${'A'.repeat(8000)}` } },
  { label: 'basic instead of bearer', headers: { authorization: 'Basic Zm9vOmJhcg==' } },
  { label: 'odd accept and request id', headers: { accept: 'application/xml;q=2, */*;q=-1', 'x-request-id': 'x'.repeat(2000) } },
  { label: 'forwarded headers from nobody trusted', headers: { 'x-forwarded-for': 'not-an-ip, ::zz', 'x-forwarded-host': 'evil.example:99999' } },
];

/** Operations of the served OpenAPI document as [method, path template, takes a body]. */
async function documentedOperations(): Promise<Array<{ method: string; path: string; body: boolean }>> {
  const document = (await (await fetch(`${platform.running.url}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { requestBody?: unknown }>>;
  };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, body: operation.requestBody !== undefined })),
  );
}

function attacksOn(operation: { method: string; path: string; body: boolean }): Attack[] {
  const attacks: Attack[] = [];
  const auth = { authorization: `Bearer ${key}` };
  const hasParameters = /\{[^}]+\}/.test(operation.path);
  // The paths are /api/v1-relative in the document.
  const base = (segment: string) => `/api/v1${operation.path.replace(/\{[^}]+\}/g, segment)}`;
  if (hasParameters) {
    for (const segment of malformedSegments) {
      attacks.push({ label: `malformed id ${segment}`, method: operation.method, path: base(segment), headers: { ...auth, 'content-type': json }, body: operation.body ? '{}' : undefined, format: 'envelope' });
    }
  }
  // A well-formed id nobody has: the attacks below then reach validation without touching anything.
  const path = base('00000000-0000-4000-8000-000000000000');
  if (operation.body) {
    for (const attack of bodyAttacks(json, '{"name":"x"}')) attacks.push({ ...attack, method: operation.method, path, headers: { ...auth, ...attack.headers }, format: 'envelope' });
  } else {
    attacks.push({ label: 'query with malformed encoding and unknown fields', method: operation.method, path: `${path}?%FF=%FE&limit=-1&limit=2&cursor[]=x`, headers: auth, format: 'envelope' });
  }
  for (const attack of headerAttacks) attacks.push({ ...attack, method: operation.method, path, headers: { ...attack.headers }, body: operation.body ? '{}' : undefined, format: 'envelope' });
  return attacks;
}

function outsideAttacks(): Attack[] {
  const attacks: Attack[] = [];
  const mcpHeaders = { authorization: `Bearer ${key}`, accept: 'application/json, text/event-stream' };
  for (const attack of bodyAttacks(json, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}')) {
    attacks.push({ ...attack, method: 'POST', path: '/mcp', headers: { ...mcpHeaders, ...attack.headers }, format: 'mcp' });
  }
  for (const [path, format] of [
    ['/oauth/token', 'oauth'],
    ['/oauth/revoke', 'oauth'],
    ['/oauth/register', 'oauth'],
    ['/oauth/authorize', 'oauth-or-page'],
  ] as const) {
    const contentType = path === '/oauth/register' ? json : form;
    for (const attack of bodyAttacks(contentType, path === '/oauth/register' ? '{"redirect_uris":["https://a.example/cb"]}' : 'grant_type=authorization_code&code=x')) {
      attacks.push({ ...attack, method: 'POST', path, format });
    }
    for (const attack of headerAttacks) attacks.push({ ...attack, method: 'POST', path, headers: { ...attack.headers, 'content-type': contentType }, body: contentType === json ? '{}' : 'a=b', format });
  }
  attacks.push({ label: 'authorize with malformed query', method: 'GET', path: '/oauth/authorize?client_id=%FF&redirect_uri=%E0%A4%A&response_type=code&response_type=token', format: 'oauth-or-page' });
  for (const segment of [...malformedSegments, 'x'.repeat(5000)]) {
    attacks.push({ label: `invitation token ${segment.slice(0, 10)}`, method: 'GET', path: `/invitations/${segment}`, format: 'page' });
    attacks.push({ label: `invitation token ${segment.slice(0, 10)}`, method: 'POST', path: `/invitations/${segment}`, headers: { 'content-type': form }, body: 'password=x', format: 'page' });
  }
  for (const attack of bodyAttacks(form, 'password=correct-horse-battery')) {
    attacks.push({ ...attack, method: 'POST', path: `/invitations/${'a'.repeat(40)}`, format: 'page' });
  }
  for (const segment of malformedSegments) {
    attacks.push({ label: `carrier webhook ${segment}`, method: 'POST', path: `/webhooks/carriers/${segment}`, headers: { 'content-type': form }, body: 'MessageSid=SM1', format: 'envelope' });
  }
  for (const attack of bodyAttacks(form, 'MessageSid=SM1&MessageStatus=delivered')) {
    attacks.push({ ...attack, method: 'POST', path: '/webhooks/carriers/00000000-0000-4000-8000-000000000000', format: 'envelope' });
  }
  // The voice webhooks: every segment a carrier's URL holds, and the inbound offer's body.
  for (const segment of malformedSegments) {
    for (const path of [`/webhooks/carriers/${segment}/voice`, `/webhooks/carriers/${segment}/voice/status`, `/webhooks/carriers/platform/calls/${segment}/twiml`]) {
      attacks.push({ label: `voice webhook ${segment}`, method: 'POST', path, headers: { 'content-type': form }, body: 'CallSid=CA1&CallStatus=ringing', format: 'envelope' });
    }
  }
  for (const attack of bodyAttacks(form, 'CallSid=CA1&From=%2B12025550143&To=%2B14155550100')) {
    attacks.push({ ...attack, method: 'POST', path: '/webhooks/carriers/00000000-0000-4000-8000-000000000000/voice', format: 'envelope' });
  }
  return attacks;
}

async function run(attack: Attack): Promise<Answer> {
  const response = await fetch(`${platform.running.url}${attack.path}`, { method: attack.method, headers: attack.headers, body: attack.body });
  return { attack, status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
}

/** What is wrong with an answer, or undefined when it is a client error (or success) in its endpoint's format. */
function problemWith(answer: Answer): string | undefined {
  if (answer.status >= 500) return `status ${answer.status}`;
  if (answer.status < 400) return undefined;
  const isPage = answer.contentType.startsWith('text/html') && answer.text.startsWith('<!doctype html>');
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    body = undefined;
  }
  const record = (body ?? {}) as Record<string, unknown>;
  const isEnvelope =
    Object.keys(record).length === 1 &&
    typeof record.error === 'object' &&
    record.error !== null &&
    typeof (record.error as { code?: unknown }).code === 'string' &&
    typeof (record.error as { message?: unknown }).message === 'string';
  const isOAuth = typeof record.error === 'string' && typeof record.error_description === 'string';
  const isJsonRpcError =
    record.jsonrpc === '2.0' && typeof (record.error as { code?: unknown } | undefined)?.code === 'number' && typeof (record.error as { message?: unknown }).message === 'string';
  const expected = { envelope: isEnvelope, oauth: isOAuth, page: isPage, 'oauth-or-page': isOAuth || isPage, mcp: isEnvelope || isJsonRpcError }[answer.attack.format];
  return expected ? undefined : `not in the ${answer.attack.format} format: ${answer.contentType} ${answer.text.slice(0, 200)}`;
}

async function walk(attacks: Attack[]): Promise<string[]> {
  const problems: string[] = [];
  // A few at a time: hostile, not a load test.
  for (let start = 0; start < attacks.length; start += 8) {
    const answers = await Promise.all(attacks.slice(start, start + 8).map(run));
    for (const answer of answers) {
      const problem = problemWith(answer);
      if (problem) problems.push(`${answer.attack.method} ${answer.attack.path.slice(0, 80)} (${answer.attack.label}): ${problem}`);
    }
  }
  return problems;
}

test('every documented operation answers hostile input without a 500, in the envelope', async () => {
  const operations = await documentedOperations();
  expect(operations.length).toBeGreaterThan(40);
  const attacks = operations.flatMap(attacksOn);
  expect(await walk(attacks)).toEqual([]);
}, 120_000);

test('/mcp, the OAuth endpoints, the invitation pages and the carrier webhook answer hostile input without a 500, in their formats', async () => {
  expect(await walk(outsideAttacks())).toEqual([]);
}, 60_000);

test('nothing of it was logged as a failure of ours', () => {
  expect(platform.logs().filter((line) => line.includes('"level":"error"'))).toEqual([]);
});
