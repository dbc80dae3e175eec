// Runs an api tool once: checks the arguments, builds its HTTP request and reports what came back.
import { performance } from 'node:perf_hooks';
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import { isHeaderValue, pathPlaceholder, type ApiToolConfig } from '@voice/contracts/tools';
import { guardedRequest, RequestFailed } from '@voice/runtime/egress';
import type { Egress } from '../runner.js';
import { ToolArgumentError, type TestOutcome } from './outcome.js';

type Parameter = NonNullable<ApiToolConfig['parameters']>[number];

const defaultTimeoutMs = 10_000;
const maxBodyBytes = 64 * 1024;

export async function runApiTool(config: ApiToolConfig, args: JsonObject, egress: Egress): Promise<TestOutcome> {
  checkArguments(config.parameters ?? [], args);
  const request = buildRequest(config, args);
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  try {
    const response = await guardedRequest({
      ...request,
      timeoutMs: config.timeout_ms ?? defaultTimeoutMs,
      policy: egress.policy,
      logger: egress.logger,
      maxBodyBytes,
    });
    const json = parseJson(response.headers['content-type'], response.body, response.truncated);
    const body = json === undefined ? response.body : json.value;
    const mapped = mapResponse(config.response_mapping ?? {}, json);
    return { kind: 'http', status: response.status, body, mapped, durationMs: durationMs() };
  } catch (error) {
    if (error instanceof RequestFailed) return { kind: 'failure', code: error.code, message: error.message, durationMs: durationMs() };
    throw error;
  }
}

const typeChecks: Record<Parameter['type'], (value: JsonValue) => boolean> = {
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number',
  integer: (value) => Number.isInteger(value),
  boolean: (value) => typeof value === 'boolean',
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  array: (value) => Array.isArray(value),
};

function checkArguments(parameters: Parameter[], args: JsonObject): void {
  const issues: { field: string; issue: string }[] = [];
  const byName = new Map(parameters.map((parameter) => [parameter.name, parameter]));
  for (const [name, value] of Object.entries(args)) {
    const parameter = byName.get(name);
    if (!parameter) issues.push({ field: `arguments.${name}`, issue: 'is not a parameter of this tool' });
    else if (!typeChecks[parameter.type](value)) issues.push({ field: `arguments.${name}`, issue: `must be of type ${parameter.type}` });
    else if (parameter.location === 'header' && !isHeaderValue(text(value))) {
      issues.push({ field: `arguments.${name}`, issue: 'cannot be sent as an HTTP header value' });
    }
  }
  for (const parameter of parameters) {
    if (parameter.required && !Object.hasOwn(args, parameter.name)) {
      issues.push({ field: `arguments.${parameter.name}`, issue: 'is required' });
    }
  }
  if (issues.length > 0) throw new ToolArgumentError(issues);
}

/** How a value is written into a URL or header: strings as they are, anything else as JSON. */
const text = (value: JsonValue): string => (typeof value === 'string' ? value : JSON.stringify(value));

interface BuiltRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

function buildRequest(config: ApiToolConfig, args: JsonObject): BuiltRequest {
  const parameters = config.parameters ?? [];
  const at = (location: Parameter['location']) =>
    parameters.filter((parameter) => parameter.location === location && Object.hasOwn(args, parameter.name));
  const pathNames = new Set(parameters.filter((parameter) => parameter.location === 'path').map((parameter) => parameter.name));

  // One pass, so a substituted value is never itself searched for placeholders.
  const rawUrl = config.url.replace(pathPlaceholder, (placeholder, name: string) => {
    if (!pathNames.has(name)) return placeholder;
    const value = args[name];
    return value === undefined ? '' : encodeURIComponent(text(value));
  });
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new ToolArgumentError([{ field: 'arguments', issue: 'make the tool URL invalid' }]);
  }

  const bodyFields: JsonObject = {};
  for (const parameter of at('body')) bodyFields[parameter.name] = args[parameter.name] as JsonValue;
  // Static values are fixed by the tool's author, so an argument of the same name does not override them.
  Object.assign(bodyFields, config.static_values ?? {});

  for (const parameter of at('query')) url.searchParams.append(parameter.name, text(args[parameter.name] as JsonValue));
  const hasBody = config.method !== 'GET' && config.method !== 'DELETE';
  if (!hasBody) {
    for (const [name, value] of Object.entries(bodyFields)) url.searchParams.append(name, text(value));
  }

  // Keyed by lower-case name so the tool's configured headers win over arguments of the same name.
  const headers = new Map<string, [string, string]>();
  const setHeader = (name: string, value: string) => headers.set(name.toLowerCase(), [name, value]);
  for (const parameter of at('header')) setHeader(parameter.name, text(args[parameter.name] as JsonValue));
  if (hasBody) setHeader('Content-Type', 'application/json');
  for (const [name, value] of Object.entries(config.headers ?? {})) setHeader(name, value);

  return {
    method: config.method,
    url: url.href,
    headers: Object.fromEntries(headers.values()),
    ...(hasBody ? { body: JSON.stringify(bodyFields) } : {}),
  };
}

/** The parsed body when the response says it is JSON and it parses; undefined otherwise. */
function parseJson(contentType: string | undefined, body: string, truncated: boolean): { value: JsonValue } | undefined {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (truncated || (mediaType !== 'application/json' && !mediaType.endsWith('+json'))) return undefined;
  try {
    return { value: JSON.parse(body) as JsonValue };
  } catch {
    return undefined;
  }
}

function mapResponse(mapping: Record<string, string>, json: { value: JsonValue } | undefined): JsonObject {
  const mapped: JsonObject = {};
  for (const [output, path] of Object.entries(mapping)) mapped[output] = json === undefined ? null : readPath(json.value, path);
  return mapped;
}

/** The value at a dot path such as `data.items.0.id` (a leading `$.` allowed), or null when absent. */
function readPath(body: JsonValue, path: string): JsonValue {
  const trimmed = path.replace(/^\$(?:\.|$)/, '');
  let node: JsonValue = body;
  for (const key of trimmed === '' ? [] : trimmed.split('.')) {
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)] ?? null;
    else if (typeof node === 'object' && node !== null && !Array.isArray(node) && Object.hasOwn(node, key)) node = node[key] ?? null;
    else return null;
    if (node === null) return null;
  }
  return node;
}
