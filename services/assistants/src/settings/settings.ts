// The SettingsService: a workspace's memory and AI-inference settings, their defaults until it
// changes them, partial updates that never lose a concurrent one (revision-checked, retried), the
// provider keys sealed at rest and never answered, and the test of a key against its provider.
import type { JsonObject } from '@bufbuild/protobuf';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { workspaceCallerOf } from '@voice/runtime/caller';
import type { SecretBox } from '@voice/runtime/crypto';
import { EgressRefused } from '@voice/runtime/egress';
import { invalidRequest, serviceError, type FieldIssue } from '@voice/runtime/errors';
import { toTimestamp } from '@voice/runtime/time';
import { validate } from '@voice/runtime/validation';
import {
  aiInferenceDefaults,
  inferenceProviders,
  memoryDefaults,
  testProviderKeyBodySchema,
  updateAiInferenceSettingsBodySchema,
  updateMemorySettingsBodySchema,
  type InferenceProvider,
} from '@voice/contracts/settings';
import { secretMask } from '@voice/contracts/tools';
import type {
  SettingsService,
  TestProviderKeyRequest,
  UpdateAiInferenceSettingsRequest,
  UpdateMemorySettingsRequest,
} from '@voice/proto/voice/assistants/v1/settings';
import type { Catalog } from '../domain/catalog.js';
import type { ProviderKeyTester } from '../inference/provider-key-test.js';
import type { SettingsKind, SettingsStore } from '../store/store.js';
import { planOf } from '../assistants/configurations.js';

export interface SettingsDeps {
  store: SettingsStore;
  box: SecretBox;
  catalog: Catalog;
  keyTester: ProviderKeyTester;
  now: () => Date;
}

/** The AI-inference settings as stored: the provider keys sealed. */
interface StoredInference {
  default_model: { provider: string; model: string };
  allowed_providers: string[];
  provider_keys: Record<string, string>;
}

/** Concurrent writers each retry this often before the request is answered 409. */
const attempts = 5;

export class SettingsArea implements ServiceImpl<typeof SettingsService> {
  constructor(private readonly deps: SettingsDeps) {}

  async getMemorySettings(_request: unknown, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    const stored = await this.deps.store.settings(workspaceId, 'memory');
    return { settings: this.memory(stored?.value, stored?.updatedAt) };
  }

  async updateMemorySettings(request: UpdateMemorySettingsRequest, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    const input = validate(updateMemorySettingsBodySchema, request.changes ?? {});
    if (!input.ok) throw invalidRequest(input.issues);
    const saved = await this.change(workspaceId, 'memory', (current) => ({ ...memoryDefaults, ...current, ...input.value }));
    return { settings: this.memory(saved.value, saved.updatedAt) };
  }

  async getAiInferenceSettings(_request: unknown, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    const stored = await this.deps.store.settings(workspaceId, 'ai_inference');
    return { settings: this.inference(stored?.value, stored?.updatedAt) };
  }

  async updateAiInferenceSettings(request: UpdateAiInferenceSettingsRequest, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    const input = validate(updateAiInferenceSettingsBodySchema, request.changes ?? {});
    if (!input.ok) throw invalidRequest(input.issues);
    const changes = input.value;
    if (changes.default_model) {
      const verdict = this.deps.catalog.languageModelVerdict(changes.default_model.provider, changes.default_model.model, planOf(request.workspacePlan), 'default_model.model');
      if (verdict.unknown.length > 0) throw invalidRequest(verdict.unknown);
      if (verdict.outsidePlan.length > 0) throw serviceError('forbidden', `default_model.model: ${verdict.outsidePlan[0]!.issue}`, { fields: verdict.outsidePlan });
    }
    const saved = await this.change(workspaceId, 'ai_inference', (value) => {
      const current = storedInference(value);
      const next: StoredInference = {
        default_model: changes.default_model ?? current.default_model,
        allowed_providers: changes.allowed_providers ?? current.allowed_providers,
        provider_keys: this.sealKeys(current.provider_keys, changes.provider_keys ?? {}),
      };
      if (!next.allowed_providers.includes(next.default_model.provider)) {
        throw invalidRequest([{ field: changes.default_model ? 'default_model.provider' : 'allowed_providers', issue: 'the default model’s provider must be allowed' }]);
      }
      return next as unknown as JsonObject;
    });
    return { settings: this.inference(saved.value, saved.updatedAt) };
  }

  async testProviderKey(request: TestProviderKeyRequest, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    const input = validate(testProviderKeyBodySchema, { provider: request.provider, api_key: request.apiKey || undefined });
    if (!input.ok) throw invalidRequest(input.issues);
    const { provider, api_key: sent } = input.value;
    let key = sent === secretMask ? undefined : sent;
    if (key === undefined) {
      const stored = storedInference((await this.deps.store.settings(workspaceId, 'ai_inference'))?.value).provider_keys[provider];
      if (stored === undefined) throw invalidRequest([{ field: 'api_key', issue: `is required: no key is stored for ${provider}` }]);
      key = this.deps.box.open(stored);
    }
    try {
      const outcome = await this.deps.keyTester.test(provider, key);
      return { provider, ...outcome };
    } catch (error) {
      if (error instanceof EgressRefused) {
        throw serviceError('destination_forbidden', `the ${provider} API address configured for this platform is a private or reserved address`, { cause: error });
      }
      throw error;
    }
  }

  /** Reads, changes and writes one kind of settings, retrying while other writes come first. */
  private async change(workspaceId: string, kind: SettingsKind, next: (current: JsonObject | undefined) => JsonObject) {
    for (let attempt = 0; attempt < attempts; attempt++) {
      const current = await this.deps.store.settings(workspaceId, kind);
      const value = next(current?.value);
      const now = this.deps.now().toISOString();
      if (await this.deps.store.saveSettings(workspaceId, kind, value, current?.revision ?? 0, now)) return { value, updatedAt: now };
    }
    throw serviceError('conflict', 'the settings were changed by other requests at the same time; try again');
  }

  /** The keys after a change: a new key sealed, the mask keeping the stored one, null removing it. */
  private sealKeys(stored: Record<string, string>, sent: Partial<Record<InferenceProvider, string | null>>): Record<string, string> {
    const keys = { ...stored };
    const issues: FieldIssue[] = [];
    for (const [provider, value] of Object.entries(sent)) {
      if (value === null) delete keys[provider];
      else if (value !== secretMask) keys[provider] = this.deps.box.seal(value);
      else if (stored[provider] === undefined) issues.push({ field: `provider_keys.${provider}`, issue: 'is the mask, but no key is stored for this provider' });
    }
    if (issues.length > 0) throw invalidRequest(issues);
    return keys;
  }

  private memory(value: JsonObject | undefined, updatedAt: string | undefined) {
    const settings = { ...memoryDefaults, ...(value as Partial<typeof memoryDefaults> | undefined) };
    return { enabled: settings.enabled, remember: settings.remember, retentionDays: settings.retention_days, updatedAt: updatedAt ? toTimestamp(updatedAt) : undefined };
  }

  private inference(value: JsonObject | undefined, updatedAt: string | undefined) {
    const settings = storedInference(value);
    return {
      defaultModel: settings.default_model,
      allowedProviders: settings.allowed_providers,
      // In the catalog's order, whatever order they were stored in.
      providersWithKeys: inferenceProviders.filter((provider) => settings.provider_keys[provider] !== undefined),
      updatedAt: updatedAt ? toTimestamp(updatedAt) : undefined,
    };
  }
}

/** The providers a workspace's assistants may use. */
export async function allowedProvidersOf(store: Pick<SettingsStore, 'settings'>, workspaceId: string): Promise<string[]> {
  return storedInference((await store.settings(workspaceId, 'ai_inference'))?.value).allowed_providers;
}

const storedInference = (value: JsonObject | undefined): StoredInference => ({
  ...aiInferenceDefaults,
  provider_keys: {},
  ...(value as Partial<StoredInference> | undefined),
});
