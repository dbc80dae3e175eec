// Tools and API keys as public JSON (snake_case, RFC 3339 times, nothing internal), and the list and
// delete envelopes. Each presenter is typed by its schema in @voice/contracts.
import { toJson } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import type { z } from 'zod';
import { toIso } from '@voice/runtime/time';
import type { ApiKey } from '@voice/proto/voice/identity/v1/identity';
import type { TestToolResponse, Tool } from '@voice/proto/voice/tools/v1/tools';
import { type testResultSchema, type toolSchema, toolTypes } from '@voice/contracts/tools';
import { type deletedSchema, oneOf } from '@voice/contracts/responses';
import type { apiKeySchema } from '@voice/contracts/identity';

/** The service stores a config only after its type's schema accepted it, so the pair is one the union allows. */
export const presentTool = (tool: Tool): z.infer<typeof toolSchema> =>
  ({
    id: tool.id,
    name: tool.name,
    description: tool.description,
    type: oneOf(toolTypes, tool.type),
    config: tool.config ?? {},
    is_active: tool.isActive,
    revision: tool.revision,
    created_at: toIso(tool.createdAt),
    updated_at: toIso(tool.updatedAt),
  }) as z.infer<typeof toolSchema>;

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
