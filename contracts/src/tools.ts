// The one definition of a tool's input: the gateway validates REST bodies with it, the
// service validates config by type with it, and the MCP and OpenAPI layers derive from it.
import { z } from 'zod';
import { networkFailureReasons } from '@voice/runtime/egress';
import { boundedJson, isHttpUrlWithoutCredentials, pageQueryFields } from '@voice/runtime/validation';
import { idSchema, timeSchema } from './responses.js';
import { secretMask } from './secret-mask.js';

export { secretMask };

export const toolTypes = ['api', 'mcp', 'builtin'] as const;
export type ToolType = (typeof toolTypes)[number];


export const toolNamePattern = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;
const identifier = /^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/;
/** Parameter names may carry hyphens, since header parameters are named like headers. */
const parameterName = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
/** `{name}` in an api tool's url, replaced by the path parameter of that name. */
export const pathPlaceholder = /\{([a-zA-Z_][a-zA-Z0-9_-]{0,63})\}/g;

const timeoutMs = z.int().min(1).max(120_000);
const description = z.string().max(1000);

/** http(s) URL without credentials; `withPlaceholders` allows `{name}` (api path parameters). */
const httpUrl = (withPlaceholders: boolean) =>
  z
    .string()
    .max(2048)
    .refine((value) => {
      if (!withPlaceholders && /[{}]/.test(value)) return false;
      return isHttpUrlWithoutCredentials(withPlaceholders ? value.replace(pathPlaceholder, 'x') : value);
    }, 'must be an http or https URL without credentials');

/** Node's own rule for header values: tab, visible ASCII and Latin-1, nothing else. */
export const isHeaderValue = (value: string): boolean => /^[\t\x20-\x7e\x80-\xff]*$/.test(value);

/** A value that can travel in an HTTP header, so a stored secret can never fail (or inject) at run time. */
const headerValue = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    // The mask stands for the stored secret, which was checked when it was sent.
    .refine((value) => value === secretMask || isHeaderValue(value), 'must hold only tab, printable ASCII or Latin-1 characters');

const headers = z
  .record(z.string().regex(headerName, 'must be a valid HTTP header name'), headerValue(4096))
  .refine((value) => Object.keys(value).length <= 50, 'at most 50 headers');

export const parameterSources = ['model', 'context'] as const;
export const parameterLocations = ['body', 'query', 'path', 'header'] as const;

const apiParameter = z.strictObject({
  name: z.string().regex(parameterName, 'must be a letter or underscore followed by letters, digits, underscores or hyphens'),
  type: z.enum(['string', 'number', 'integer', 'boolean', 'object', 'array']),
  description: description.optional(),
  required: z.boolean().default(false),
  source: z.enum(parameterSources).default('model'),
  location: z.enum(parameterLocations).default('body'),
});

export const apiConfigSchema = z
  .strictObject({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('POST'),
    url: httpUrl(true),
    headers: headers.optional(),
    parameters: z.array(apiParameter).max(50).optional(),
    static_values: z.record(z.string(), boundedJson()).optional(),
    response_mapping: z.record(z.string().regex(identifier), z.string().min(1).max(256)).optional(),
    timeout_ms: timeoutMs.optional(),
    async: z.boolean().optional(),
    filler_phrase: z.string().max(500).optional(),
    speak_after: z.boolean().default(true),
  })
  .superRefine((config, context) => {
    const names = new Set<string>();
    const pathNames = new Set([...config.url.matchAll(pathPlaceholder)].map((match) => match[1]));
    config.parameters?.forEach((parameter, index) => {
      if (names.has(parameter.name)) {
        context.addIssue({ code: 'custom', path: ['parameters', index, 'name'], message: 'is used twice' });
      }
      names.add(parameter.name);
      if (parameter.location === 'path' && !pathNames.has(parameter.name)) {
        context.addIssue({
          code: 'custom',
          path: ['parameters', index, 'location'],
          message: `path parameter needs a {${parameter.name}} placeholder in url`,
        });
      }
    });
  })
  .meta({ id: 'ApiToolConfig' });

const toolOption = z.strictObject({
  cancellable: z.boolean().default(false),
  on_duplicate: z.enum(['allow', 'reject', 'replace', 'confirm']).default('allow'),
  report_progress: z.boolean().default(false),
});

export const mcpConfigSchema = z
  .strictObject({
    url: httpUrl(false),
    auth_type: z.enum(['none', 'bearer', 'header']).default('none'),
    auth_header_name: z.string().regex(headerName, 'must be a valid HTTP header name').optional(),
    auth_value_encrypted: headerValue(4096).optional(),
    allowed_tools: z.array(z.string().regex(/^[a-zA-Z0-9_.\-/]{1,128}$/)).max(200).optional(),
    tool_options: z.record(z.string().regex(/^[a-zA-Z0-9_.\-/]{1,128}$/), toolOption).optional(),
    timeout_ms: timeoutMs.optional(),
  })
  .superRefine((config, context) => {
    if (config.auth_type === 'header' && !config.auth_header_name) {
      context.addIssue({ code: 'custom', path: ['auth_header_name'], message: 'is required when auth_type is header' });
    }
    if (config.auth_type !== 'none' && !config.auth_value_encrypted) {
      context.addIssue({ code: 'custom', path: ['auth_value_encrypted'], message: `is required when auth_type is ${config.auth_type}` });
    }
    if (config.auth_type === 'none' && config.auth_value_encrypted) {
      context.addIssue({ code: 'custom', path: ['auth_value_encrypted'], message: 'must be absent when auth_type is none' });
    }
    if (new Set(config.allowed_tools ?? []).size !== (config.allowed_tools ?? []).length) {
      context.addIssue({ code: 'custom', path: ['allowed_tools'], message: 'lists a tool twice' });
    }
    for (const [tool, options] of Object.entries(config.tool_options ?? {})) {
      if (options.on_duplicate === 'replace' && !options.cancellable) {
        context.addIssue({
          code: 'custom',
          path: ['tool_options', tool, 'on_duplicate'],
          message: 'replace requires cancellable to be true',
        });
      }
    }
  })
  .meta({ id: 'McpToolConfig' });

const e164 = /^\+[1-9]\d{6,14}$/;
const transferDestination = z
  .string()
  .max(256)
  .refine((value) => e164.test(value) || /^sips?:[^\s@]+@[^\s@]+$/.test(value), 'must be an E.164 number or a sip: URI')
  .meta({ examples: ['+14155550123'] });
const sipHeaders = z
  .record(z.string().regex(/^X-[A-Za-z0-9-]{1,64}$/, 'must be a custom X- header'), headerValue(1024))
  .refine((value) => Object.keys(value).length <= 20, 'at most 20 headers');
const builtinBase = { description: description.optional() };

export const builtinTypes = [
  'call_transfer',
  'warm_call_transfer',
  'end_call',
  'collect_payment_card',
  'set_variable',
  'dtmf',
  'keypad_collection',
  'calendar_scheduling',
  'assistant_transfer',
] as const;

export const builtinConfigSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('call_transfer'), ...builtinBase, destination: transferDestination, message: z.string().max(500).optional(), sip_headers: sipHeaders.optional() }),
    z.strictObject({
      type: z.literal('warm_call_transfer'),
      ...builtinBase,
      destination: transferDestination,
      summary_prompt: z.string().max(2000).optional(),
      hold_message: z.string().max(500).optional(),
      sip_headers: sipHeaders.optional(),
    }),
    z.strictObject({ type: z.literal('end_call'), ...builtinBase, message: z.string().max(500).optional() }),
    z.strictObject({
      type: z.literal('collect_payment_card'),
      ...builtinBase,
      payment_connection_id: z.uuid(),
      amount_minor: z.int().min(0).optional(),
      currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code').optional(),
    }),
    z.strictObject({
      type: z.literal('set_variable'),
      ...builtinBase,
      allowed_keys: z.array(z.string().regex(identifier)).min(1).max(50),
    }),
    z.strictObject({ type: z.literal('dtmf'), ...builtinBase }),
    z.strictObject({
      type: z.literal('keypad_collection'),
      ...builtinBase,
      max_digits: z.int().min(1).max(64).optional(),
      terminator: z.enum(['#', '*']).optional(),
      timeout_ms: timeoutMs.optional(),
    }),
    z.strictObject({ type: z.literal('calendar_scheduling'), ...builtinBase, calendar_integration_id: z.uuid() }),
    z.strictObject({ type: z.literal('assistant_transfer'), ...builtinBase, assistant_id: z.uuid() }),
  ],
  { error: () => `type must be one of ${builtinTypes.join(', ')}` },
).meta({ id: 'BuiltinToolConfig' });

export type ApiToolConfig = z.output<typeof apiConfigSchema>;
export type McpToolConfig = z.output<typeof mcpConfigSchema>;
export type BuiltinToolConfig = z.output<typeof builtinConfigSchema>;

export const configSchemas = {
  api: apiConfigSchema,
  mcp: mcpConfigSchema,
  builtin: builtinConfigSchema,
} as const;

const toolFields = {
  name: z.string().regex(toolNamePattern, 'must start with a letter and hold at most 64 letters, digits, underscores or hyphens'),
  description: description,
  type: z.enum(toolTypes),
  config: z.record(z.string(), boundedJson()),
  is_active: z.boolean(),
};

/** Body of POST /tools: name and type required; config is checked by type afterwards. */
export const createToolBodySchema = z.strictObject({
  name: toolFields.name,
  description: toolFields.description.optional(),
  type: toolFields.type,
  config: toolFields.config.optional(),
  is_active: toolFields.is_active.optional(),
});

/**
 * POST /tools as documented: `config` by `type`. The gateway checks the body's own fields (so one
 * answer names every bad one) and the tools service the config by type, with these same schemas.
 */
export const createToolDocumentedBodySchema = z
  .discriminatedUnion('type', [
    createToolBodySchema.extend({ type: z.literal('api'), config: apiConfigSchema.optional() }).meta({ id: 'CreateApiToolRequest' }),
    createToolBodySchema.extend({ type: z.literal('mcp'), config: mcpConfigSchema.optional() }).meta({ id: 'CreateMcpToolRequest' }),
    createToolBodySchema.extend({ type: z.literal('builtin'), config: builtinConfigSchema.optional() }).meta({ id: 'CreateBuiltinToolRequest' }),
  ])
  .meta({ discriminator: { propertyName: 'type' } });

/** Body of PATCH /tools/{id}: only the fields to change, plus expected_revision. */
export const updateToolBodySchema = z.strictObject({
  name: toolFields.name.optional(),
  description: toolFields.description.optional(),
  type: toolFields.type.optional(),
  config: toolFields.config.optional(),
  is_active: toolFields.is_active.optional(),
  expected_revision: z.int().min(1).max(2_147_483_647),
});

/** PATCH /tools/{id} as documented: `config` is checked against `type`, or the stored type when `type` is not sent. */
export const updateToolDocumentedBodySchema = updateToolBodySchema.extend({
  config: z
    .union([apiConfigSchema, mcpConfigSchema, builtinConfigSchema])
    .optional()
    .describe('the configuration of `type`, or of the stored type when `type` is not sent'),
});

/** Body of POST /tools/{id}/test. */
export const testToolBodySchema = z.strictObject({
  arguments: z.record(z.string(), boundedJson()).optional(),
});

/** Query of GET /tools (pagination is parsed by the shared pagination rule). */
export const listToolsQuerySchema = z.strictObject({
  type: z.enum(toolTypes).optional(),
  is_active: z.enum(['true', 'false']).optional(),
  ...pageQueryFields,
});

/** Free-form JSON object. */
export const jsonObject = z.record(z.string(), z.unknown());

const toolFieldsShown = {
  id: idSchema,
  name: z.string(),
  description: z.string(),
  is_active: z.boolean(),
  revision: z.int().min(1).describe('increases with every change; send it as expected_revision to update'),
  created_at: timeSchema.nullable(),
  updated_at: timeSchema.nullable(),
};
const configShown = 'the configuration of the type, with its defaults applied; secrets shown as the mask •••';

/** A tool as the API answers it: its `config` is the one of its `type`. */
export const toolSchema = z
  .discriminatedUnion('type', [
    z.object({ ...toolFieldsShown, type: z.literal('api'), config: apiConfigSchema.describe(configShown) }).meta({ id: 'ApiTool' }),
    z.object({ ...toolFieldsShown, type: z.literal('mcp'), config: mcpConfigSchema.describe(configShown) }).meta({ id: 'McpTool' }),
    z.object({ ...toolFieldsShown, type: z.literal('builtin'), config: builtinConfigSchema.describe(configShown) }).meta({ id: 'BuiltinTool' }),
  ])
  .meta({ id: 'Tool', discriminator: { propertyName: 'type' } });

export const durationMs = z.int().min(0).describe('how long the test took, in milliseconds');

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
]).meta({ id: 'ToolTestResult' });
