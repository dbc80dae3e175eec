// Plausible example values from a JSON Schema: the first branch of a union, one item of an array,
// every property of an object, formats and the API's decimal patterns filled with realistic values.
// The document keeps an example only when the operation's own zod schema accepts it.
import type { JsonSchema, SchemaComponents } from './json-schema.js';

const byFormat: Record<string, string> = {
  uuid: '3f2b8c4e-9a1d-4e7b-8c2f-5d6a7b8c9d0e',
  'date-time': '2026-11-21T10:00:00.000Z',
  date: '2026-11-21',
  time: '10:00:00',
  email: 'ada@example.com',
  uri: 'https://example.com/path',
  hostname: 'voice.example.com',
  ipv4: '192.0.2.10',
  ipv6: '2001:db8::10',
};

/** Values for well-known field names, used when the schema allows them. */
const byName: Record<string, string> = {
  scopes: 'assistants:read',
  scope: 'assistants:read',
  name: 'Support line',
  description: 'An example description',
  domain: 'voice.example.com',
  url: 'https://example.com/path',
  email: 'ada@example.com',
  password: 'correct horse battery staple',
  to: '+14155550123',
  from: '+14155550100',
  number: '+14155550123',
  phone_number: '+14155550123',
  country: 'US',
  kind: 'sms.outbound',
  body: 'Your order has shipped.',
  amount: '10.0000',
  phone: '+14155550123',
  // A calling window: its end must come after its start.
  start: '09:00',
  end: '17:00',
};

/** Ids and addresses by the ending of the field's name (`from_number_id`, `base_url`). */
const byNameEnding = (name: string): string | undefined =>
  name === 'id' || name.endsWith('_id') ? byFormat.uuid : name.endsWith('_url') ? byFormat.uri : undefined;

/** Strings tried, in order, against a pattern the format does not explain. */
const patternCandidates = [
  '12.5000', // credits
  '3.000', // minutes
  '+14155550123', // E.164
  'example',
  'example_name',
  'voice.example.com',
  'https://example.com',
  'svc_0123456789abcdefghijklmnopqrstuvwxyzABCD',
  'A1',
  '1',
];

const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

function stringExample(schema: JsonSchema, name: string | undefined): string {
  const format = typeof schema.format === 'string' ? byFormat[schema.format] : undefined;
  if (format !== undefined) return format;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const fits = (value: string) => value.length >= min && value.length <= max;
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
  const hint = name === undefined ? undefined : (byName[name] ?? byNameEnding(name));
  if (hint !== undefined && fits(hint) && (pattern === undefined || pattern.test(hint))) return hint;
  if (pattern !== undefined) {
    const candidate = patternCandidates.find((value) => pattern.test(value) && fits(value));
    if (candidate !== undefined) return candidate;
  }
  const word = name && /^[a-z_]+$/.test(name) ? name.replace(/_/g, ' ') : 'example';
  if (fits(word)) return word;
  return word.padEnd(min, 'x').slice(0, Math.max(min, Math.min(max, word.length)));
}

/** Numbers for well-known field names (pagination), used when the schema allows them. */
const numberByName: Record<string, number> = { limit: 50, offset: 0, total: 1, revision: 1, expected_revision: 1 };

function numberExample(schema: JsonSchema, name: string | undefined): number {
  const integer = schema.type === 'integer';
  const lower = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + (integer ? 1 : 0.5) : undefined;
  const upper = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - (integer ? 1 : 0.5) : undefined;
  const preferred = (name === undefined ? undefined : numberByName[name]) ?? (integer ? 1 : 1.5);
  if (lower !== undefined && preferred < lower) return lower;
  if (upper !== undefined && preferred > upper) return upper;
  return preferred;
}

const typeOf = (schema: JsonSchema): string | undefined => {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null') ?? schema.type[0];
  if (isObject(schema.properties)) return 'object';
  return undefined;
};

/** An example value of `schema`; `$ref`s are followed into `components`. */
export function exampleOf(schema: JsonSchema, components: SchemaComponents, name?: string, depth = 0): unknown {
  if (depth > 12) return null;
  const next = (child: unknown, childName?: string) => (isObject(child) ? exampleOf(child, components, childName, depth + 1) : {});
  if (typeof schema.$ref === 'string') {
    const target = components[schema.$ref.replace('#/components/schemas/', '')];
    return target ? next(target, name) : {};
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && branches.length > 0) {
      // Prefer a branch that says something over null.
      const branch = branches.find((candidate) => !(isObject(candidate) && candidate.type === 'null')) ?? branches[0];
      return next(branch, name);
    }
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((part) => next(part, name));
    return parts.every(isObject) ? Object.assign({}, ...parts) : parts[0];
  }
  switch (typeOf(schema)) {
    case 'string':
      return stringExample(schema, name);
    case 'integer':
    case 'number':
      return numberExample(schema, name);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      // One item, except deep inside a recursive schema, where the recursion has to stop.
      const count = Math.max(depth > 6 ? 0 : 1, typeof schema.minItems === 'number' ? schema.minItems : 0);
      const items = isObject(schema.items) ? schema.items : {};
      return Array.from({ length: count }, () => next(items, name));
    }
    case 'object': {
      const properties = isObject(schema.properties) ? schema.properties : {};
      return Object.fromEntries(Object.entries(properties).map(([property, child]) => [property, next(child, property)]));
    }
    default:
      return {};
  }
}
