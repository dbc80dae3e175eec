// The workspace settings of assistants: memory (what assistants remember of callers, and how long)
// and AI inference (the default model, the providers allowed, the workspace's own provider keys).
// The gateway validates PATCH bodies with these schemas and the assistants service applies them.
import { z } from 'zod';
import { networkFailureReasons } from '@voice/runtime/egress';
import { timeSchema } from './responses.js';
import { isHeaderValue, secretMask } from './tools.js';

export const memoryItems = ['caller_name', 'contact_details', 'conversation_summaries', 'preferences', 'open_requests'] as const;

/** The providers a workspace may bring its own key for: the language-model providers of the catalog. */
export const inferenceProviders = ['openai', 'anthropic', 'google'] as const;
export type InferenceProvider = (typeof inferenceProviders)[number];

const unique = <T>(items: T[]) => new Set(items).size === items.length;

export const memorySettingsFields = {
  enabled: z.boolean().describe('whether assistants remember callers across conversations'),
  remember: z
    .array(z.enum(memoryItems))
    .max(memoryItems.length)
    .refine(unique, 'lists an item twice')
    .describe('what assistants remember of a caller'),
  retention_days: z.int().min(1).max(3650).describe('how long a memory is kept after the conversation it came from'),
};

export const memoryDefaults = { enabled: false, remember: ['caller_name', 'conversation_summaries'], retention_days: 90 } satisfies {
  enabled: boolean;
  remember: (typeof memoryItems)[number][];
  retention_days: number;
};

/** Body of PATCH /settings/memory: the fields to change. */
export const updateMemorySettingsBodySchema = z.strictObject({
  enabled: memorySettingsFields.enabled.optional(),
  remember: memorySettingsFields.remember.optional(),
  retention_days: memorySettingsFields.retention_days.optional(),
});

/** An API key as sent: printable, header-safe; the mask keeps the stored one. */
const providerKey = z.union([
  z.literal(secretMask),
  z
    .string()
    .min(8)
    .max(512)
    .refine((value) => isHeaderValue(value), 'must hold only printable ASCII or Latin-1 characters'),
]);

export const modelChoiceSchema = z.strictObject({ provider: z.enum(inferenceProviders), model: z.string().min(1).max(128) });

export const aiInferenceDefaults = {
  default_model: { provider: 'openai', model: 'gpt-4o-mini' },
  allowed_providers: [...inferenceProviders],
} satisfies { default_model: z.infer<typeof modelChoiceSchema>; allowed_providers: InferenceProvider[] };

/** Body of PATCH /settings/ai-inference: the fields to change; a key set to null is removed. */
export const updateAiInferenceSettingsBodySchema = z.strictObject({
  default_model: modelChoiceSchema.optional().describe('the model of assistants that name none, and of the platform’s own AI features'),
  allowed_providers: z
    .array(z.enum(inferenceProviders))
    .min(1)
    .refine(unique, 'lists a provider twice')
    .optional()
    .describe('the providers assistants of the workspace may use'),
  provider_keys: z
    .partialRecord(z.enum(inferenceProviders), providerKey.nullable())
    .optional()
    .describe('the workspace’s own API key per provider: write-only, answered as the mask •••; the mask keeps a stored key, null removes it'),
});

/** Body of POST /settings/ai-inference/test-key. */
export const testProviderKeyBodySchema = z.strictObject({
  provider: z.enum(inferenceProviders),
  api_key: providerKey.optional().describe('the key to test; the stored key of the provider when absent'),
});

// ---------------------------------------------------------------------------------------------
// Answers

export const memorySettingsSchema = z.object({
  enabled: z.boolean().describe('whether assistants remember callers across conversations'),
  remember: z.array(z.enum(memoryItems)).describe('what assistants remember of a caller'),
  retention_days: z.int().min(1).describe('how long a memory is kept after the conversation it came from'),
  updated_at: timeSchema.nullable().describe('null while the workspace keeps the defaults'),
});

const mask = z.literal(secretMask);

export const aiInferenceSettingsSchema = z.object({
  default_model: z.object({ provider: z.enum(inferenceProviders), model: z.string() }),
  allowed_providers: z.array(z.enum(inferenceProviders)),
  provider_keys: z.partialRecord(z.enum(inferenceProviders), mask).describe('the providers with a stored key, each shown as the mask •••; keys are never answered'),
  updated_at: timeSchema.nullable().describe('null while the workspace keeps the defaults'),
});

export const keyTestResults = ['valid', 'invalid', 'provider_error', ...networkFailureReasons] as const;

export const keyTestSchema = z.object({
  provider: z.enum(inferenceProviders),
  result: z
    .enum(keyTestResults)
    .describe('valid, invalid (the provider refused the key), provider_error (another answer), or why no answer came'),
  message: z.string(),
  provider_status: z.int().nullable().describe('the provider’s HTTP status; null when none came'),
  duration_ms: z.int().min(0),
});
