// Zod schemas as the JSON Schema the OpenAPI document embeds, and the examples made from them.
import { z } from 'zod';
import { exampleOf } from '../src/openapi/example.js';
import { jsonSchemaOf, type SchemaComponents } from '../src/openapi/json-schema.js';
import { amountsSchema, dataOf, idSchema, listOfSchema, timeSchema } from '@voice/contracts/responses';

test('requests keep their strictness and input shape; answers may gain fields', () => {
  const body = z.strictObject({ name: z.string().trim().min(1), retries: z.int().default(3), at: z.string().transform(Date.parse) });
  const components: SchemaComponents = {};
  expect(jsonSchemaOf(body, 'input', 'CreateThingRequest', components)).toEqual({
    type: 'object',
    properties: { name: { type: 'string', minLength: 1 }, retries: { type: 'integer', default: 3 }, at: { type: 'string' } },
    required: ['name', 'at'],
    additionalProperties: false,
  });
  const answer = jsonSchemaOf(dataOf(z.object({ id: idSchema, at: timeSchema })), 'output', 'GetThingResponse', components);
  expect(answer).toEqual({
    type: 'object',
    properties: {
      data: {
        type: 'object',
        properties: { id: { type: 'string', format: 'uuid', description: 'UUID v4' }, at: { type: 'string', format: 'date-time', description: 'RFC 3339 UTC time with milliseconds' } },
        required: ['id', 'at'],
      },
    },
    required: ['data'],
  });
  expect(components).toEqual({});
});

test('a recursive schema is placed in the components and referred to there', () => {
  interface Node {
    name: string;
    children: Node[];
  }
  const node: z.ZodType<Node> = z.object({ name: z.string(), get children() { return z.array(node); } });
  const components: SchemaComponents = {};
  expect(jsonSchemaOf(z.object({ tree: node }), 'output', 'GetTreeResponse', components)).toEqual({ $ref: '#/components/schemas/GetTreeResponse' });
  const serialised = JSON.stringify(components);
  expect(serialised).not.toContain('"#"');
  expect(serialised).not.toContain('$defs');
  for (const ref of serialised.match(/#\/components\/schemas\/[A-Za-z0-9._-]+/g) ?? []) {
    expect(Object.keys(components)).toContain(ref.replace('#/components/schemas/', ''));
  }
  const example = exampleOf({ $ref: '#/components/schemas/GetTreeResponse' }, components);
  expect(z.object({ tree: node }).safeParse(example).success).toBe(true);
});

test('examples satisfy the schemas they come from: ids, times, exact amounts, pages', () => {
  const schema = listOfSchema(z.object({ id: idSchema, created_at: timeSchema.nullable(), balance: amountsSchema, from_number_id: z.string(), kind: z.enum(['a', 'b']) }));
  const components: SchemaComponents = {};
  const example = exampleOf(jsonSchemaOf(schema, 'output', 'ListThingsResponse', components), components) as { meta: unknown; data: unknown[] };
  expect(schema.safeParse(example).success).toBe(true);
  expect(example.meta).toEqual({ pagination: { limit: 50, offset: 0, total: 1 } });
  expect(example.data[0]).toMatchObject({ balance: { credits: '12.5000', minutes: '3.000' }, kind: 'a' });
});
