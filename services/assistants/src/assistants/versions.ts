// The AssistantVersionsService: an assistant's configuration history, one version read with the
// fields it changed, and restores that write a new version equal to an earlier one.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { workspaceCallerOf } from '@voice/runtime/caller';
import { notFound } from '@voice/runtime/errors';
import { normalisePage } from '@voice/runtime/validation';
import type {
  AssistantVersionsService,
  GetAssistantVersionRequest,
  ListAssistantVersionsRequest,
  RestoreAssistantVersionRequest,
} from '@voice/proto/voice/assistants/v1/versions';
import { changedFields } from '../domain/configuration.js';
import type { AssistantSecrets } from '../domain/secrets.js';
import { presentAssistant, presentVersion } from '../presenter.js';
import type { AssistantStore, AssistantVersionStore, SettingsStore, VersionRecord } from '../store/store.js';
import type { References } from './references.js';
import { allowedProvidersOf } from '../settings/settings.js';
import { loadAssistant } from './assistants.js';
import { planOf, type Configurations } from './configurations.js';
import { authorOf, revisionConflict } from './writes.js';

export interface VersionsDeps {
  assistants: Pick<AssistantStore, 'get' | 'update'>;
  versions: AssistantVersionStore;
  settings: Pick<SettingsStore, 'settings'>;
  configurations: Configurations;
  secrets: AssistantSecrets;
  references: References;
  now: () => Date;
}

export class Versions implements ServiceImpl<typeof AssistantVersionsService> {
  constructor(private readonly deps: VersionsDeps) {}

  async listAssistantVersions(request: ListAssistantVersionsRequest, context: HandlerContext) {
    const assistant = await loadAssistant(this.deps.assistants, request.assistantId, context);
    const { versions, total } = await this.deps.versions.listVersions(assistant.workspaceId, assistant.id, normalisePage(request.page));
    return { versions: versions.map((version) => presentVersion(version, this.deps.secrets)), total };
  }

  async getAssistantVersion(request: GetAssistantVersionRequest, context: HandlerContext) {
    return { version: presentVersion(await this.load(request, context), this.deps.secrets) };
  }

  async restoreAssistantVersion(request: RestoreAssistantVersionRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const restored = await this.load({ assistantId: request.assistantId, number: request.number }, context);
    const current = await loadAssistant(this.deps.assistants, request.assistantId, context);
    const expected = request.expectedRevision || current.revision;
    if (expected !== current.revision) throw revisionConflict(current.revision);
    // Held to today's catalog and plan: a version may name a model the plan no longer includes.
    const allowed = await allowedProvidersOf(this.deps.settings, caller.workspaceId);
    const prepared = this.deps.configurations.prepare(restored.config, {}, planOf(request.workspacePlan), allowed);
    // The tools and assistants an old version named may be gone since.
    await this.deps.references.check(caller, prepared.config, ['tool_ids', 'builtin_tools', 'knowledge_base_ids']);
    const at = this.deps.now().toISOString();
    const outcome = await this.deps.assistants.update(caller.workspaceId, current.id, expected, { name: prepared.name, config: prepared.config, updatedAt: at }, {
      workspaceId: caller.workspaceId,
      assistantId: current.id,
      number: expected + 1,
      config: prepared.config,
      author: authorOf(caller),
      changedFields: changedFields(current.config, prepared.config),
      restoredFrom: restored.number,
      createdAt: at,
    });
    switch (outcome.kind) {
      case 'updated':
        return { assistant: presentAssistant(outcome.assistant, this.deps.secrets) };
      case 'not_found':
        throw notFound('assistant');
      case 'revision_conflict':
        throw revisionConflict();
    }
  }

  private async load(request: { assistantId: string; number: number }, context: HandlerContext): Promise<VersionRecord> {
    const assistant = await loadAssistant(this.deps.assistants, request.assistantId, context);
    const version = request.number >= 1 ? await this.deps.versions.getVersion(assistant.workspaceId, assistant.id, request.number) : undefined;
    if (!version) throw notFound('version');
    return version;
  }
}
