// Zod schemas as the JSON Schema 2020-12 that OpenAPI 3.1 embeds: request shapes as the client
// sends them (`io: 'input'`, before defaults and transforms), answers as the API sends them.
import { z } from 'zod';

export type JsonSchema = { [keyword: string]: unknown };

/** The document's components.schemas, where shared and recursive schemas live. */
export type SchemaComponents = Record<string, JsonSchema>;

/** Where `format` already says it, zod's long equivalent `pattern` only clutters the reference. */
const formatsWithOwnRule = new Set(['date-time', 'date', 'time', 'uuid', 'email', 'ipv4', 'ipv6', 'uri', 'hostname']);

const schemaMaps = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs']);

const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Removes noise zod emits (the safe-integer bounds of z.int(), patterns restating a format) and rewrites $refs. */
function tidy(node: unknown, io: 'input' | 'output', ref: (target: string) => string): unknown {
  if (Array.isArray(node)) return node.map((item) => tidy(item, io, ref));
  if (!isObject(node)) return node;
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === '$ref' && typeof value === 'string') out.$ref = ref(value);
    else if (keyword === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    else if (keyword === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    else if (keyword === 'pattern' && typeof node.format === 'string' && formatsWithOwnRule.has(node.format)) continue;
    // Answers may gain fields without a new version; only requests refuse unknown ones.
    else if (keyword === 'additionalProperties' && value === false && io === 'output') continue;
    // Values (const, enum, default, examples) are data, not schemas: copied as they are.
    else if (keyword === 'const' || keyword === 'enum' || keyword === 'default' || keyword === 'examples' || keyword === 'example') out[keyword] = value;
    // Maps from names (which may be any word, `default` included) to schemas.
    else if (schemaMaps.has(keyword) && isObject(value)) {
      out[keyword] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, tidy(schema, io, ref)]));
    } else out[keyword] = tidy(value, io, ref);
  }
  return out;
}

const hasRef = (node: unknown): boolean =>
  Array.isArray(node) ? node.some(hasRef) : isObject(node) && (typeof node.$ref === 'string' || Object.values(node).some(hasRef));

/**
 * The JSON Schema of `schema`, ready to embed in the document. A schema that refers to itself, or
 * has definitions, is placed in `components` under `name` (its definitions beside it, prefixed with
 * it), since a `#` inside an embedded schema would point at the document's root.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output', name: string, components: SchemaComponents): JsonSchema {
  const raw = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as JsonSchema;
  const { $schema: _dialect, $defs, ...root } = raw;
  const defs = isObject($defs) ? $defs : {};
  if (!hasRef(root) && Object.keys(defs).length === 0) return tidy(root, io, (target) => target) as JsonSchema;

  const componentOf = (key: string) => `${name}_${key.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^_+/, '')}`;
  const ref = (target: string): string => {
    if (target === '#') return `#/components/schemas/${name}`;
    const key = /^#\/\$defs\/(.+)$/.exec(target)?.[1];
    if (key === undefined || !(key in defs)) throw new Error(`unexpected $ref ${target} in the schema of ${name}`);
    return `#/components/schemas/${componentOf(key)}`;
  };
  const place = (component: string, value: JsonSchema) => {
    if (components[component] !== undefined) throw new Error(`two schemas named ${component} in the OpenAPI document`);
    components[component] = value;
  };
  for (const [key, def] of Object.entries(defs)) place(componentOf(key), tidy(def, io, ref) as JsonSchema);
  place(name, tidy(root, io, ref) as JsonSchema);
  return { $ref: `#/components/schemas/${name}` };
}
