// /settings/memory and /settings/ai-inference (issue 15): what assistants remember of callers, and
// the workspace's model defaults, allowed providers and its own provider keys (write-only).
import type { z } from 'zod';
import type { JsonObject } from '@bufbuild/protobuf';
import {
  aiInferenceSettingsSchema,
  inferenceProviders,
  keyTestResults,
  keyTestSchema,
  memoryItems,
  memorySettingsSchema,
  testProviderKeyBodySchema,
  updateAiInferenceSettingsBodySchema,
  updateMemorySettingsBodySchema,
} from '@voice/contracts/settings';
import { dataOf, oneOf } from '@voice/contracts/responses';
import { toIso } from '@voice/runtime/time';
import { definedFields } from '@voice/runtime/validation';
import type { AiInferenceSettings, MemorySettings, TestProviderKeyResponse } from '@voice/proto/voice/assistants/v1/settings';
import type { RestRouter } from './router.js';
import type { RestDeps } from './deps.js';
import { toolHints } from './operation.js';

const presentMemory = (settings: MemorySettings): z.infer<typeof memorySettingsSchema> => ({
  enabled: settings.enabled,
  remember: settings.remember.map((item) => oneOf(memoryItems, item)),
  retention_days: settings.retentionDays,
  updated_at: toIso(settings.updatedAt),
});

const presentInference = (settings: AiInferenceSettings): z.infer<typeof aiInferenceSettingsSchema> => ({
  default_model: { provider: oneOf(inferenceProviders, settings.defaultModel?.provider ?? ''), model: settings.defaultModel?.model ?? '' },
  allowed_providers: settings.allowedProviders.map((provider) => oneOf(inferenceProviders, provider)),
  provider_keys: Object.fromEntries(settings.providersWithKeys.map((provider) => [provider, '\u2022\u2022\u2022' as const])),
  updated_at: toIso(settings.updatedAt),
});

const presentKeyTest = (answer: TestProviderKeyResponse): z.infer<typeof keyTestSchema> => ({
  provider: oneOf(inferenceProviders, answer.provider),
  result: oneOf(keyTestResults, answer.result),
  message: answer.message,
  provider_status: answer.providerStatus || null,
  duration_ms: answer.durationMs,
});

export function registerSettingsRoutes(rest: RestRouter, deps: RestDeps): void {
  const settings = deps.clients.settings;

  rest.operation({
    method: 'get',
    path: '/settings/memory',
    scope: 'settings:read',
    doc: {
      id: 'getMemorySettings',
      summary: 'Whether assistants remember callers across conversations, what, and for how long',
      toolset: 'settings',
      response: dataOf(memorySettingsSchema),
      mcp: { tool: 'get_memory_settings', annotations: toolHints.read },
    },
    handle: async (call) => ({ body: { data: presentMemory((await settings.getMemorySettings({}, call.options)).settings!) } }),
  });

  rest.operation({
    method: 'patch',
    path: '/settings/memory',
    scope: 'settings:write',
    body: updateMemorySettingsBodySchema,
    doc: {
      id: 'updateMemorySettings',
      summary: 'Change the memory settings',
      description: 'Only the fields sent change.',
      toolset: 'settings',
      response: dataOf(memorySettingsSchema),
      mcp: { tool: 'update_memory_settings', annotations: toolHints.update },
    },
    handle: async (call) => {
      const answer = await settings.updateMemorySettings({ changes: definedFields(call.body) as JsonObject }, call.options);
      return { body: { data: presentMemory(answer.settings!) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/settings/ai-inference',
    scope: 'settings:read',
    doc: {
      id: 'getAiInferenceSettings',
      summary: 'The default model, the providers allowed and which provider keys the workspace stored',
      toolset: 'settings',
      response: dataOf(aiInferenceSettingsSchema),
      mcp: { tool: 'get_ai_inference_settings', annotations: toolHints.read },
    },
    handle: async (call) => ({ body: { data: presentInference((await settings.getAiInferenceSettings({}, call.options)).settings!) } }),
  });

  rest.operation({
    method: 'patch',
    path: '/settings/ai-inference',
    scope: 'settings:write',
    body: updateAiInferenceSettingsBodySchema,
    doc: {
      id: 'updateAiInferenceSettings',
      summary: 'Change the default model, the providers allowed, or the workspace’s provider keys',
      description:
        'Only the fields sent change. `default_model` must be a language model of the catalog the plan includes (400 unknown, 403 outside the plan) from an allowed provider; assistants may only use allowed providers. `provider_keys` sets a key per provider: keys are encrypted at rest and never answered (the mask `•••` shows one is stored); sending the mask keeps the stored key, `null` removes it.',
      toolset: 'settings',
      response: dataOf(aiInferenceSettingsSchema),
      mcp: { tool: 'update_ai_inference_settings', annotations: toolHints.update },
    },
    handle: async (call) => {
      const answer = await settings.updateAiInferenceSettings(
        { changes: definedFields(call.body) as JsonObject, workspacePlan: call.auth.workspace.plan },
        call.options,
      );
      return { body: { data: presentInference(answer.settings!) } };
    },
  });

  rest.operation({
    method: 'post',
    path: '/settings/ai-inference/test-key',
    scope: 'settings:write',
    body: testProviderKeyBodySchema,
    doc: {
      id: 'testProviderKey',
      summary: 'Ask a provider whether it accepts a key (the one sent, or the stored one)',
      description:
        'One authenticated request to the provider’s list of models. The answer is 200 whatever the provider says: `result` is `valid`, `invalid` (401 or 403 from the provider), `provider_error`, or why no answer came. A provider address that is private or reserved is 403 `destination_forbidden` and nothing is sent.',
      toolset: 'settings',
      response: dataOf(keyTestSchema),
    },
    handle: async (call) => {
      const answer = await settings.testProviderKey({ provider: call.body.provider, apiKey: call.body.api_key ?? '' }, call.options);
      return { body: { data: presentKeyTest(answer) } };
    },
  });
}
