// Checks every answer a test receives from /api/v1 against the OpenAPI document the platform serves
// (its status, the headers it declares and its body), so the document cannot drift from the API
// without some end-to-end test failing.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Json } from './openapi-routes.js';

const apiPrefix = '/api/v1';
const documentPath = `${apiPrefix}/openapi.json`;
const docId = 'https://openapi.conformance/api/v1/openapi.json';

/** One answer as a test saw it. */
export interface ObservedAnswer {
  method: string;
  /** The request's path and query, as sent. */
  path: string;
  status: number;
  headers: Headers | Record<string, string | string[] | undefined>;
  text: string;
}

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

interface Route {
  template: string;
  pattern: RegExp;
  /** More literal segments win: /phone-numbers/available before /phone-numbers/{id}. */
  literals: number;
}

/** The document of one platform, compiled once. */
class Conformance {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly routes: Route[];
  /** The header names the document defines; an answer carrying one must declare it. */
  private readonly knownHeaders: Set<string>;

  constructor(private readonly doc: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema({ ...doc, $id: docId });
    this.routes = Object.keys(doc.paths as Json)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.split('/').map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}$`),
        literals: template.split('/').filter((segment) => segment && !segment.startsWith('{')).length,
      }))
      .sort((a, b) => b.literals - a.literals);
    this.knownHeaders = new Set(Object.keys((doc.components?.headers ?? {}) as Json).map((name) => name.toLowerCase()));
  }

  private validatorAt(...parts: string[]): ValidateFunction {
    const validate = this.ajv.getSchema(`${docId}#/${pointer(...parts)}`);
    if (!validate) throw new Error(`the OpenAPI document has no schema at ${parts.join(' ')}`);
    return validate;
  }

  /** Follows a local `$ref` (components.responses, components.headers) to the object it names. */
  private resolve(node: Json): { node: Json; at: string[] } {
    if (typeof node.$ref !== 'string') return { node, at: [] };
    const at = node.$ref.replace(/^#\//, '').split('/').map((part: string) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
    return { node: at.reduce((value: Json, part: string) => value?.[part], this.doc), at };
  }

  /** Every way `answer` departs from the document; empty when it conforms. */
  problems(answer: ObservedAnswer): string[] {
    const path = answer.path.split('?')[0]!.slice(apiPrefix.length) || '/';
    const method = answer.method.toLowerCase();
    const route = this.routes.find((candidate) => candidate.pattern.test(path) && (this.doc.paths as Json)[candidate.template][method]);
    if (!route) {
      // Unknown paths and methods are 404 and 405 by the document's own rules; anything else is an undocumented route.
      return answer.status === 404 || answer.status === 405 ? [] : [`${answer.method} ${path} is not in the document, yet answered ${answer.status}`];
    }
    const operationAt = ['paths', route.template, method];
    const responses = (this.doc.paths as Json)[route.template][method].responses as Json;
    const where = `${answer.method} ${route.template} → ${answer.status}`;
    const statusKey = [String(answer.status), `${String(answer.status)[0]}XX`, 'default'].find((key) => responses[key] !== undefined);
    if (!statusKey) return [`${where}: the document declares no such answer (it declares ${Object.keys(responses).join(', ')})`];
    const declared = responses[statusKey] as Json;
    const { node: response, at: responseAt } = this.resolve(declared);
    const base = responseAt.length > 0 ? responseAt : [...operationAt, 'responses', statusKey];
    return [...this.headerProblems(answer, response, base, where), ...this.bodyProblems(answer, response, base, where)];
  }

  private headerProblems(answer: ObservedAnswer, response: Json, base: string[], where: string): string[] {
    const problems: string[] = [];
    const received = headerMap(answer.headers);
    const declared = Object.entries((response.headers ?? {}) as Json);
    const declaredNames = new Set(declared.map(([name]) => name.toLowerCase()));
    for (const [name, reference] of declared) {
      const value = received.get(name.toLowerCase());
      const { node: header, at } = this.resolve(reference as Json);
      if (value === undefined) {
        if (header.required === true) problems.push(`${where}: the required header ${name} is missing`);
        continue;
      }
      const schemaAt = at.length > 0 ? [...at, 'schema'] : [...base, 'headers', name, 'schema'];
      const validate = this.validatorAt(...schemaAt);
      const typed = header.schema?.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
      if (!validate(typed)) problems.push(`${where}: header ${name}: ${JSON.stringify(value)} ${this.ajv.errorsText(validate.errors, { dataVar: 'value' })}`);
    }
    for (const name of received.keys()) {
      if (this.knownHeaders.has(name) && !declaredNames.has(name)) problems.push(`${where}: carries ${name}, which the document does not declare for this answer`);
    }
    return problems;
  }

  private bodyProblems(answer: ObservedAnswer, response: Json, base: string[], where: string): string[] {
    const media = (response.content ?? {})['application/json'] as Json | undefined;
    if (!media) return answer.text === '' ? [] : [`${where}: has a body, but the document declares none`];
    const contentType = headerMap(answer.headers).get('content-type') ?? '';
    if (!/^application\/json\b/.test(contentType)) return [`${where}: content-type is ${JSON.stringify(contentType)}, not application/json`];
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return [`${where}: the body is not JSON: ${answer.text.slice(0, 200)}`];
    }
    const validate = this.validatorAt(...base, 'content', 'application/json', 'schema');
    if (validate(body)) return [];
    return [`${where}: the body does not match the document: ${this.ajv.errorsText(validate.errors, { dataVar: 'body', separator: '; ' })}\n${answer.text.slice(0, 500)}`];
  }
}

function headerMap(headers: ObservedAnswer['headers']): Map<string, string> {
  if (headers instanceof Headers) return new Map([...headers].map(([name, value]) => [name.toLowerCase(), value]));
  const map = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) map.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value);
  return map;
}

/** The compiled document of each platform, by its base address (fetched on its first answer). */
const documents = new Map<string, Promise<Conformance>>();

async function conformanceOf(baseUrl: string): Promise<Conformance> {
  let cached = documents.get(baseUrl);
  if (!cached) {
    cached = fetch(`${baseUrl}${documentPath}`).then(async (answer) => {
      if (answer.status !== 200) throw new Error(`GET ${documentPath} answered ${answer.status}`);
      return new Conformance((await answer.json()) as Json);
    });
    documents.set(baseUrl, cached);
    // A platform that was not up yet is asked again next time.
    cached.catch(() => documents.delete(baseUrl));
  }
  return cached;
}

/** Whether the answers of `path` are the document's to describe: /api/v1 except the document itself. */
export const isDocumentedApi = (path: string): boolean => {
  const bare = path.split('?')[0]!;
  return (bare === apiPrefix || bare.startsWith(`${apiPrefix}/`)) && bare !== documentPath;
};

/**
 * Loads the document of the platform at `baseUrl` before a request is sent, so a test that then
 * stops a service still has it.
 */
export const prepareConformance = async (baseUrl: string, path: string): Promise<void> => {
  if (isDocumentedApi(path)) await conformanceOf(baseUrl);
};

/** Throws, naming every difference, when an answer from /api/v1 is not one the document describes. */
export async function expectDocumented(baseUrl: string, answer: ObservedAnswer): Promise<void> {
  if (!isDocumentedApi(answer.path)) return;
  const problems = (await conformanceOf(baseUrl)).problems(answer);
  if (problems.length > 0) throw new Error(`an answer the OpenAPI document does not describe:\n${problems.join('\n')}`);
}
