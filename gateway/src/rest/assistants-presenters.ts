// Presenters of assistants, their versions and the catalog: proto messages to the public JSON the
// contracts' answer schemas describe (the whole configuration, SPEC.md 1 rule 4; secrets as the
// mask the service put there).
import type { z } from 'zod';
import { toIso } from '@voice/runtime/time';
import { catalogModelKinds, voiceGenders, versionAuthorTypes, type AssistantConfig } from '@voice/contracts/assistants';
import type { assistantSchema, catalogModelSchema, catalogPlansSchema, catalogVoiceSchema, versionSchema, versionSummarySchema } from '@voice/contracts/assistants';
import { oneOf } from '@voice/contracts/responses';
import type { Assistant } from '@voice/proto/voice/assistants/v1/assistants';
import type { CatalogModel, CatalogVoice } from '@voice/proto/voice/assistants/v1/catalog';
import type { AssistantVersion } from '@voice/proto/voice/assistants/v1/versions';

/** The configuration a service sent: validated by the same contract before it was stored. */
const configOf = (config: unknown): AssistantConfig => (config ?? {}) as AssistantConfig;

export const presentAssistant = (assistant: Assistant): z.infer<typeof assistantSchema> => ({
  id: assistant.id,
  ...configOf(assistant.config),
  revision: assistant.revision,
  created_at: toIso(assistant.createdAt),
  updated_at: toIso(assistant.updatedAt),
});

export const presentVersionSummary = (version: AssistantVersion): z.infer<typeof versionSummarySchema> => ({
  number: version.number,
  created_by: {
    type: oneOf(versionAuthorTypes, version.createdBy?.type ?? ''),
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

/** The catalog lists only the plans there are. */
const plansOf = (plans: string[]) => plans as z.infer<typeof catalogPlansSchema>;

export const presentCatalogModel = (model: CatalogModel): z.infer<typeof catalogModelSchema> => ({
  kind: oneOf(catalogModelKinds, model.kind),
  provider: model.provider,
  id: model.id,
  name: model.name,
  languages: model.languages,
  plans: plansOf(model.plans),
});

export const presentCatalogVoice = (voice: CatalogVoice): z.infer<typeof catalogVoiceSchema> => ({
  provider: voice.provider,
  id: voice.id,
  name: voice.name,
  languages: voice.languages,
  gender: oneOf(voiceGenders, voice.gender),
  plans: plansOf(voice.plans),
});
