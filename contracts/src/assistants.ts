// The one definition of an assistant's configuration: the gateway validates REST bodies and MCP
// arguments with it, the assistants service validates and completes what it stores with it, and
// the OpenAPI and MCP layers derive from it; the answers' schemas (assistants, versions, the
// catalog) are here too. Top-level fields carry no defaults here, so a PATCH
// changes only what it sends; the service completes a create with `assistantDefaults`.
import { z } from 'zod';
import { plans } from '@voice/runtime/access';
import { normaliseEmail } from '@voice/runtime/accounts';
import { boundedJson, pageQueryFields } from '@voice/runtime/validation';
import { idSchema, paginationSchema, timeSchema } from './responses.js';
import { builtinConfigSchema } from './tools.js';
import { emailField } from './identity.js';

const identifier = /^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/;

/** BCP 47 tags as the catalog writes them: a language, optionally with a region (`en`, `en-US`). */
export const languageTag = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, 'must be a language tag such as en or en-US')
  .meta({ examples: ['en-US'] });

const uniqueIds = (max: number) =>
  z
    .array(z.uuid())
    .max(max)
    .refine((ids) => new Set(ids).size === ids.length, 'lists an id twice');

export const firstMessageModes = ['assistant_speaks_first', 'assistant_waits_for_user'] as const;
export const voicemailActions = ['hang_up', 'leave_message'] as const;
export const backgroundSounds = ['off', 'office'] as const;

const modelSchema = z.strictObject({
  provider: z.string().min(1).max(64),
  model: z.string().min(1).max(128),
  temperature: z.number().min(0).max(2).default(0.7),
  max_tokens: z.int().min(1).max(16_384).default(1024),
});

const voiceSchema = z.strictObject({
  provider: z.string().min(1).max(64),
  voice_id: z.string().min(1).max(128),
  speed: z.number().min(0.5).max(2).default(1),
  stability: z.number().min(0).max(1).optional(),
  similarity_boost: z.number().min(0).max(1).optional(),
  style: z.number().min(0).max(1).optional(),
});

const transcriberSchema = z.strictObject({
  provider: z.string().min(1).max(64),
  model: z.string().min(1).max(128),
  /** The assistant's language when absent. */
  language: languageTag.optional(),
});

const variableSchema = z.strictObject({
  name: z.string().regex(identifier, 'must be a letter or underscore followed by letters, digits or underscores'),
  description: z.string().max(500).optional(),
  /** Used when a call does not set the variable; `{{name}}` in prompts and messages is replaced by the value. */
  default_value: z.string().max(2000).optional(),
});

/** How long an assistant's calls may last when its end_call does not say. */
export const defaultMaxDurationSeconds = 1_800;

const endCallSchema = z.strictObject({
  max_duration_seconds: z.int().min(10).max(43_200).default(defaultMaxDurationSeconds),
  silence_timeout_seconds: z.int().min(5).max(3600).default(30),
  /** Said by the caller or the assistant, any of these ends the call. */
  phrases: z.array(z.string().min(1).max(200)).max(20).default([]),
  /** Said before hanging up. */
  message: z.string().max(500).optional(),
});

const voicemailSchema = z
  .strictObject({
    detection_enabled: z.boolean().default(false),
    action: z.enum(voicemailActions).default('hang_up'),
    message: z.string().min(1).max(1000).optional(),
  })
  .refine((voicemail) => voicemail.action !== 'leave_message' || voicemail.message !== undefined, {
    path: ['message'],
    message: 'is required when action is leave_message',
  });

const jsonSchemaObject = z
  .record(z.string(), boundedJson())
  .refine((schema) => schema.type === 'object', 'must be a JSON Schema whose type is object')
  .meta({ examples: [{ type: 'object', properties: { appointment_booked: { type: 'boolean' } }, required: ['appointment_booked'] }] });

/** After each call that ends, its summary e-mailed from a verified e-mail sender (POST /email-senders) to each recipient. */
const summaryEmailSchema = z.strictObject({
  sender_id: z.uuid().describe('a verified e-mail sender of the workspace (GET /email-senders)'),
  recipients: z
    .array(emailField)
    .min(1)
    .max(10)
    .refine((recipients) => new Set(recipients.map((recipient) => normaliseEmail(recipient))).size === recipients.length, 'lists an address twice')
    .describe('who receives the summary: one e-mail each, listed in GET /history'),
});

const analysisPlanSchema = z.strictObject({
  summary_instructions: z.string().max(4000).optional(),
  /** JSON Schema of the fields extracted from each conversation. */
  structured_data_schema: jsonSchemaObject.optional(),
  success_criteria: z.string().max(4000).optional(),
  summary_email: summaryEmailSchema.optional(),
});

/** Every top-level field of the configuration, each as it is when sent. */
export const assistantFields = {
  name: z.string().trim().min(1).max(100),
  description: z.string().max(1000),
  first_message: z.string().max(2000),
  first_message_mode: z.enum(firstMessageModes),
  system_prompt: z.string().max(20_000),
  language: languageTag,
  model: modelSchema,
  voice: voiceSchema,
  transcriber: transcriberSchema,
  tool_ids: uniqueIds(50),
  /** Each item has the shape of a builtin tool's config (SPEC.md 2.4). */
  builtin_tools: z.array(builtinConfigSchema).max(20),
  knowledge_base_ids: uniqueIds(10),
  variables: z
    .array(variableSchema)
    .max(50)
    .refine((variables) => new Set(variables.map((v) => v.name)).size === variables.length, 'names a variable twice'),
  end_call: endCallSchema,
  voicemail: voicemailSchema,
  recording_enabled: z.boolean(),
  background_sound: z.enum(backgroundSounds),
  analysis_plan: analysisPlanSchema,
  metadata: z
    .record(z.string().max(64), boundedJson())
    .refine((metadata) => Object.keys(metadata).length <= 50, 'at most 50 keys'),
};

export type AssistantField = keyof typeof assistantFields;
export const assistantFieldNames = Object.keys(assistantFields) as AssistantField[];

/** The stored, complete configuration: every field present, nested defaults applied. */
export const assistantConfigSchema = z.strictObject(assistantFields);
export type AssistantConfig = z.output<typeof assistantConfigSchema>;

/** What a create leaves out (the catalog's everyday entries; name is required). */
export const assistantDefaults: Omit<z.input<typeof assistantConfigSchema>, 'name'> = {
  description: '',
  first_message: '',
  first_message_mode: 'assistant_speaks_first',
  system_prompt: '',
  language: 'en-US',
  model: { provider: 'openai', model: 'gpt-4o-mini' },
  voice: { provider: 'openai', voice_id: 'alloy' },
  transcriber: { provider: 'deepgram', model: 'nova-3' },
  tool_ids: [],
  builtin_tools: [],
  knowledge_base_ids: [],
  variables: [],
  end_call: {},
  voicemail: {},
  recording_enabled: true,
  background_sound: 'off',
  analysis_plan: {},
  metadata: {},
};

const optionalFields = Object.fromEntries(Object.entries(assistantFields).map(([name, schema]) => [name, schema.optional()])) as {
  [K in AssistantField]: z.ZodOptional<(typeof assistantFields)[K]>;
};

/** Body of POST /assistants: name required, every other field optional (defaults fill them). */
export const createAssistantBodySchema = z.strictObject({ ...optionalFields, name: assistantFields.name });

/** Body of PATCH /assistants/{id}: the top-level fields to replace, plus expected_revision. */
export const updateAssistantBodySchema = z.strictObject({
  ...optionalFields,
  expected_revision: z.int().min(1).max(2_147_483_647),
});

/** Body of POST /assistants/{id}/versions/{n}/restore. */
export const restoreVersionBodySchema = z.strictObject({
  expected_revision: z.int().min(1).max(2_147_483_647).optional(),
});

/** Query of GET /assistants. */
export const listAssistantsQuerySchema = z.strictObject({
  q: z.string().max(100).optional(),
  ...pageQueryFields,
});

export const catalogModelKinds = ['llm', 'transcriber'] as const;

/** Query of GET /catalog/models. */
export const listModelsQuerySchema = z.strictObject({
  kind: z.enum(catalogModelKinds).optional(),
  provider: z.string().max(64).optional(),
  language: languageTag.optional(),
  ...pageQueryFields,
});

/** Query of GET /voices. */
export const listVoicesQuerySchema = z.strictObject({
  provider: z.string().max(64).optional(),
  language: languageTag.optional(),
  ...pageQueryFields,
});

// ---------------------------------------------------------------------------------------------
// Answers

export const assistantSchema = z.object({
  id: idSchema,
  ...assistantConfigSchema.shape,
  revision: z.int().min(1).describe('increases with every change; send it as expected_revision to update'),
  created_at: timeSchema.nullable(),
  updated_at: timeSchema.nullable(),
}).meta({ id: 'Assistant' });

export const versionAuthorTypes = ['service_account', 'user', 'internal'] as const;

const authorSchema = z
  .object({ type: z.enum(versionAuthorTypes), id: z.string(), name: z.string() })
  .describe('the credential’s principal that made the change');

export const versionSummarySchema = z.object({
  number: z.int().min(1),
  created_by: authorSchema,
  created_at: timeSchema.nullable(),
  changed_fields: z.array(z.string()).describe('paths of the fields that differ from the version before (`model.temperature`); every field for version 1'),
  restored_from: z.int().min(1).nullable().describe('the version this one restored; null for a create or an update'),
}).meta({ id: 'AssistantVersionSummary' });

export const versionSchema = versionSummarySchema.extend({
  config: assistantConfigSchema.describe('the whole configuration as it was, secrets masked'),
}).meta({ id: 'AssistantVersion' });

export const catalogPlansSchema = z.array(z.enum(plans)).describe('the plans whose workspaces may use it');
const languagesSchema = z.array(z.string()).describe('language tags it handles; `*` is every language');
export const voiceGenders = ['female', 'male', 'neutral'] as const;

export const catalogModelSchema = z.object({
  kind: z.enum(catalogModelKinds),
  provider: z.string(),
  id: z.string().describe('the value of `model.model` or `transcriber.model`'),
  name: z.string(),
  languages: languagesSchema,
  plans: catalogPlansSchema,
}).meta({ id: 'CatalogModel' });

export const catalogVoiceSchema = z.object({
  provider: z.string(),
  id: z.string().describe('the value of `voice.voice_id`'),
  name: z.string(),
  languages: languagesSchema,
  gender: z.enum(voiceGenders),
  plans: catalogPlansSchema,
}).meta({ id: 'CatalogVoice' });

/** A catalog list: the page and the version of the catalog data it comes from. */
export const catalogListSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    meta: z.object({ pagination: paginationSchema, catalog_version: z.string().describe('the version of the catalog data') }),
  });
