// Public JSON shapes: snake_case, RFC 3339 times, nothing internal. Each schema describes what its
// presenter answers, and the presenter is typed by it.
import { toJson } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import { z } from 'zod';
import { networkFailureReasons } from '@voice/runtime/egress';
import { toIso } from '@voice/runtime/time';
import { toolTypes } from '@voice/contracts/tools';
import type { ApiKey } from '@voice/proto/voice/identity/v1/identity';
import type { TestToolResponse, Tool } from '@voice/proto/voice/tools/v1/tools';
import { type deletedSchema, idSchema, oneOf, timeSchema } from './responses.js';

/** Free-form JSON object. */
const jsonObject = z.record(z.string(), z.unknown());

export const toolSchema = z.object({
  id: idSchema,
  name: z.string(),
  description: z.string(),
  type: z.enum(toolTypes),
  config: jsonObject.describe('the configuration of the type, with its defaults applied; secrets shown as the mask •••'),
  is_active: z.boolean(),
  revision: z.int().min(1).describe('increases with every change; send it as expected_revision to update'),
  created_at: timeSchema.nullable(),
  updated_at: timeSchema.nullable(),
});

export const presentTool = (tool: Tool): z.infer<typeof toolSchema> => ({
  id: tool.id,
  name: tool.name,
  description: tool.description,
  type: oneOf(toolTypes, tool.type),
  config: tool.config ?? {},
  is_active: tool.isActive,
  revision: tool.revision,
  created_at: toIso(tool.createdAt),
  updated_at: toIso(tool.updatedAt),
});

const durationMs = z.int().min(0).describe('how long the test took, in milliseconds');

export const testResultSchema = z.union([
  z
    .object({
      status: z.int().describe('the HTTP status the api tool’s endpoint answered'),
      body: z.unknown().describe('the JSON answered, or null when it was not JSON'),
      mapped: jsonObject.describe('the outputs of response_mapping'),
      duration_ms: durationMs,
    })
    .describe('an api tool: its endpoint answered'),
  z
    .object({
      tools: z.array(z.object({ name: z.string(), description: z.string(), input_schema: jsonObject.describe('JSON Schema of the tool’s input') })),
      duration_ms: durationMs,
    })
    .describe('an mcp tool: the tools its server offers'),
  z
    .object({
      status: z.null(),
      body: z.null(),
      error: z.object({ code: z.string().describe(`why no usable answer came back: ${networkFailureReasons.join(', ')}`), message: z.string() }),
      duration_ms: durationMs,
    })
    .describe('the request left but got no usable answer'),
]);

export function presentTestResult(result: TestToolResponse): z.infer<typeof testResultSchema> {
  const outcome = result.result;
  switch (outcome.case) {
    case 'http':
      return {
        status: outcome.value.status,
        body: outcome.value.body ? toJson(ValueSchema, outcome.value.body) : null,
        mapped: outcome.value.mapped ?? {},
        duration_ms: result.durationMs,
      };
    case 'mcp':
      return {
        tools: outcome.value.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema ?? {} })),
        duration_ms: result.durationMs,
      };
    case 'failure':
      return { status: null, body: null, error: { code: outcome.value.code, message: outcome.value.message }, duration_ms: result.durationMs };
    default:
      throw new Error('test result without outcome');
  }
}

export const apiKeySchema = z.object({
  id: idSchema,
  name: z.string(),
  scopes: z.array(z.string()).nullable().describe('the scopes the key grants; null when unrestricted (every scope)'),
  key_hint: z.string().describe('masked: the key’s prefix and last four characters, never the key'),
  created_at: timeSchema.nullable(),
  last_used_at: timeSchema.nullable().describe('accurate to one minute; null when never used'),
});

export const createdApiKeySchema = apiKeySchema.extend({
  key: z.string().describe('the secret key; shown only in this answer, never again'),
});

export const presentApiKey = (key: ApiKey): z.infer<typeof apiKeySchema> => ({
  id: key.id,
  name: key.name,
  scopes: key.unrestricted ? null : key.scopes,
  key_hint: key.keyHint,
  created_at: toIso(key.createdAt),
  last_used_at: toIso(key.lastUsedAt),
});

/** The answer of every DELETE: what was deleted, by its id. */
export const deletedOf = (id: string): z.infer<typeof deletedSchema> => ({ data: { id, deleted: true } });

export const listOf = <T>(data: T[], page: { limit: number; offset: number }, total: number) => ({
  data,
  meta: { pagination: { limit: page.limit, offset: page.offset, total } },
});
