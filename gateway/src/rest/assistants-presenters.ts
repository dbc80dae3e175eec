// Public JSON of assistants, their versions and the catalog: the whole configuration (SPEC.md 1
// rule 4) beside the id, revision and times; secrets as the mask the service put there.
import { z } from 'zod';
import { toIso } from '@voice/runtime/time';
import { assistantConfigSchema, catalogModelKinds, type AssistantConfig } from '@voice/contracts/assistants';
import type { Assistant } from '@voice/proto/voice/assistants/v1/assistants';
import type { CatalogModel, CatalogVoice } from '@voice/proto/voice/assistants/v1/catalog';
import type { AssistantVersion } from '@voice/proto/voice/assistants/v1/versions';
import { idSchema, oneOf, paginationSchema, timeSchema } from './responses.js';

export const assistantSchema = z.object({
  id: idSchema,
  ...assistantConfigSchema.shape,
  revision: z.int().min(1).describe('increases with every change; send it as expected_revision to update'),
  created_at: timeSchema.nullable(),
  updated_at: timeSchema.nullable(),
});

/** The configuration a service sent: validated by the same contract before it was stored. */
const configOf = (config: unknown): AssistantConfig => (config ?? {}) as AssistantConfig;

export const presentAssistant = (assistant: Assistant): z.infer<typeof assistantSchema> => ({
  id: assistant.id,
  ...configOf(assistant.config),
  revision: assistant.revision,
  created_at: toIso(assistant.createdAt),
  updated_at: toIso(assistant.updatedAt),
});

const authorSchema = z
  .object({ type: z.enum(['service_account', 'user', 'internal']), id: z.string(), name: z.string() })
  .describe('the credential’s principal that made the change');

export const versionSummarySchema = z.object({
  number: z.int().min(1),
  created_by: authorSchema,
  created_at: timeSchema.nullable(),
  changed_fields: z.array(z.string()).describe('paths of the fields that differ from the version before (`model.temperature`); every field for version 1'),
  restored_from: z.int().min(1).nullable().describe('the version this one restored; null for a create or an update'),
});

export const versionSchema = versionSummarySchema.extend({
  config: assistantConfigSchema.describe('the whole configuration as it was, secrets masked'),
});

export const presentVersionSummary = (version: AssistantVersion): z.infer<typeof versionSummarySchema> => ({
  number: version.number,
  created_by: {
    type: oneOf(['service_account', 'user', 'internal'] as const, version.createdBy?.type ?? ''),
    id: version.createdBy?.id ?? '',
    name: version.createdBy?.name ?? '',
  },
  created_at: toIso(version.createdAt),
  changed_fields: version.changedFields,
  restored_from: version.restoredFrom || null,
});

export const presentVersion = (version: AssistantVersion): z.infer<typeof versionSchema> => ({
  ...presentVersionSummary(version),
  config: configOf(version.config),
});

const plansSchema = z.array(z.enum(['starter', 'pro', 'enterprise'])).describe('the plans whose workspaces may use it');
const languagesSchema = z.array(z.string()).describe('language tags it handles; `*` is every language');

export const catalogModelSchema = z.object({
  kind: z.enum(catalogModelKinds),
  provider: z.string(),
  id: z.string().describe('the value of `model.model` or `transcriber.model`'),
  name: z.string(),
  languages: languagesSchema,
  plans: plansSchema,
});

export const catalogVoiceSchema = z.object({
  provider: z.string(),
  id: z.string().describe('the value of `voice.voice_id`'),
  name: z.string(),
  languages: languagesSchema,
  gender: z.enum(['female', 'male', 'neutral']),
  plans: plansSchema,
});

type Plans = z.infer<typeof plansSchema>;

export const presentCatalogModel = (model: CatalogModel): z.infer<typeof catalogModelSchema> => ({
  kind: oneOf(catalogModelKinds, model.kind),
  provider: model.provider,
  id: model.id,
  name: model.name,
  languages: model.languages,
  plans: model.plans as Plans,
});

export const presentCatalogVoice = (voice: CatalogVoice): z.infer<typeof catalogVoiceSchema> => ({
  provider: voice.provider,
  id: voice.id,
  name: voice.name,
  languages: voice.languages,
  gender: oneOf(['female', 'male', 'neutral'] as const, voice.gender),
  plans: voice.plans as Plans,
});

/** A catalog list: the page and the version of the catalog data it comes from. */
export const catalogListSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    meta: z.object({ pagination: paginationSchema, catalog_version: z.string().describe('the version of the catalog data') }),
  });
