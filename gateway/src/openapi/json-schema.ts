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

const refersToRoot = (node: unknown): boolean =>
  Array.isArray(node) ? node.some(refersToRoot) : isObject(node) && (node.$ref === '#' || Object.values(node).some(refersToRoot));

/**
 * Fills the `mapping` of each `discriminator` over `$ref`ed branches from the value each branch's
 * schema fixes (`const`), so a client picks the branch by the property's value, not the schema's name.
 */
function withDiscriminatorMappings(node: unknown, components: SchemaComponents): unknown {
  if (Array.isArray(node)) return node.map((item) => withDiscriminatorMappings(item, components));
  if (!isObject(node)) return node;
  const out = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withDiscriminatorMappings(value, components)]));
  const discriminator = out.discriminator;
  if (!isObject(discriminator) || typeof discriminator.propertyName !== 'string' || !Array.isArray(out.oneOf)) return out;
  const property = discriminator.propertyName;
  const mapping: Record<string, string> = {};
  for (const branch of out.oneOf) {
    const target = isObject(branch) && typeof branch.$ref === 'string' ? branch.$ref : undefined;
    const schema = target ? components[target.replace('#/components/schemas/', '')] : undefined;
    const value = isObject(schema?.properties) && isObject(schema.properties[property]) ? schema.properties[property].const : undefined;
    if (target === undefined || typeof value !== 'string') throw new Error(`a discriminator on ${property} needs $ref branches that each fix it with const`);
    mapping[value] = target;
  }
  return { ...out, discriminator: { ...discriminator, mapping } };
}

/** zod names a definition it made up (a cycle without an id) `__schema0`; any other key is a `.meta({ id })`. */
const isNamedByMeta = (key: string) => !key.startsWith('__schema');

const isDeepEqual = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The JSON Schema of `schema`, ready to embed in the document. A schema with `.meta({ id })` (a
 * resource) becomes the component of that name, shared by every operation that uses it: answers use
 * the plain name and requests an `…Input` one, since defaults make the two shapes differ (an id that
 * ends in `Request` is for requests only and is kept). A schema that refers to itself is placed in
 * `components` under `name` (its unnamed definitions beside it, prefixed with it), since a `#`
 * inside an embedded schema would point at the document's root.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output', name: string, components: SchemaComponents): JsonSchema {
  const raw = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as JsonSchema;
  const { $schema: _dialect, $defs, ...root } = raw;
  const defs = isObject($defs) ? $defs : {};
  if (!hasRef(root) && Object.keys(defs).length === 0) return withDiscriminatorMappings(tidy(root, io, (target) => target), components) as JsonSchema;

  const componentOf = (key: string) =>
    isNamedByMeta(key) ? `${key}${io === 'input' && !key.endsWith('Request') ? 'Input' : ''}` : `${name}_${key.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^_+/, '')}`;
  const ref = (target: string): string => {
    if (target === '#') return `#/components/schemas/${name}`;
    const key = /^#\/\$defs\/(.+)$/.exec(target)?.[1];
    if (key === undefined || !(key in defs)) throw new Error(`unexpected $ref ${target} in the schema of ${name}`);
    return `#/components/schemas/${componentOf(key)}`;
  };
  const place = (component: string, value: JsonSchema, shared: boolean) => {
    const existing = components[component];
    if (existing !== undefined && !(shared && isDeepEqual(existing, value))) throw new Error(`two schemas named ${component} in the OpenAPI document`);
    components[component] = value;
  };
  // Every definition is tidied before any discriminator is mapped: a union may be listed before its branches.
  const placed = Object.entries(defs).map(([key, def]) => [key, tidy(def, io, ref) as JsonSchema] as const);
  const local: SchemaComponents = { ...components, ...Object.fromEntries(placed.map(([key, def]) => [componentOf(key), def])) };
  const mapped = (node: unknown) => withDiscriminatorMappings(node, local) as JsonSchema;
  for (const [key, def] of placed) place(componentOf(key), mapped(def), isNamedByMeta(key));
  if (!refersToRoot(root)) return mapped(tidy(root, io, ref));
  place(name, mapped(tidy(root, io, ref)), false);
  return { $ref: `#/components/schemas/${name}` };
}
