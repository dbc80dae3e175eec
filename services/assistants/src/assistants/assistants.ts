// The AssistantsService: creates (idempotent), reads, searches, revision-checked updates and
// deletes of assistants; every write also writes a version. The workspace always comes from the
// signed caller.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { workspaceCallerOf } from '@voice/runtime/caller';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { idempotencyClaim } from '@voice/runtime/idempotency';
import { isUuid, newId } from '@voice/runtime/ids';
import { normalisePage, validate } from '@voice/runtime/validation';
import type { JsonObject } from '@bufbuild/protobuf';
import { assistantDefaults, updateAssistantBodySchema } from '@voice/contracts/assistants';
import type {
  AssistantsService,
  CreateAssistantRequest,
  GetCallAssistantRequest,
  ListAssistantsRequest,
  UpdateAssistantRequest,
} from '@voice/proto/voice/assistants/v1/assistants';
import { changedFields } from '../domain/configuration.js';
import type { AssistantSecrets } from '../domain/secrets.js';
import { presentAssistant } from '../presenter.js';
import type { AssistantRecord, AssistantStore, SettingsStore, VersionRecord } from '../store/store.js';
import type { References } from './references.js';
import { allowedProvidersOf } from '../settings/settings.js';
import { planOf, type Configurations } from './configurations.js';
import { authorOf, revisionConflict } from './writes.js';

export interface AssistantsDeps {
  store: AssistantStore;
  settings: Pick<SettingsStore, 'settings'>;
  configurations: Configurations;
  secrets: AssistantSecrets;
  references: References;
  now: () => Date;
}

export class Assistants implements ServiceImpl<typeof AssistantsService> {
  constructor(private readonly deps: AssistantsDeps) {}

  async createAssistant(request: CreateAssistantRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const sent = request.config ?? {};
    const allowed = await allowedProvidersOf(this.deps.settings, caller.workspaceId);
    const prepared = this.deps.configurations.prepare(assistantDefaults as JsonObject, sent, planOf(request.workspacePlan), allowed);
    await this.deps.references.check(caller, prepared.config, Object.keys(sent));
    const at = this.deps.now().toISOString();
    const record: AssistantRecord = {
      id: newId(),
      workspaceId: caller.workspaceId,
      name: prepared.name,
      config: prepared.config,
      revision: 1,
      createdAt: at,
      updatedAt: at,
    };
    const version: VersionRecord = {
      workspaceId: caller.workspaceId,
      assistantId: record.id,
      number: 1,
      config: prepared.config,
      author: authorOf(caller),
      changedFields: changedFields(undefined, prepared.config),
      restoredFrom: 0,
      createdAt: at,
    };
    const claim = request.idempotencyKey ? idempotencyClaim(request.idempotencyKey, sent, new Date(at)) : undefined;
    const outcome = await this.deps.store.create(record, version, claim);
    if (outcome.kind === 'key_reused') throw serviceError('conflict', 'this Idempotency-Key was already used with a different request body');
    return { assistant: presentAssistant(outcome.assistant, this.deps.secrets), replayed: outcome.kind === 'replayed' };
  }

  async getAssistant(request: { id: string }, context: HandlerContext) {
    return { assistant: presentAssistant(await loadAssistant(this.deps.store, request.id, context), this.deps.secrets) };
  }

  async getCallAssistant(request: GetCallAssistantRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const assistant = await loadAssistant(this.deps.store, request.id, context);
    const allowed = await allowedProvidersOf(this.deps.settings, caller.workspaceId);
    this.deps.configurations.checkRunnable(assistant.config, planOf(request.workspacePlan), allowed);
    return { assistant: presentAssistant(assistant, this.deps.secrets) };
  }

  async listAssistants(request: ListAssistantsRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const { assistants, total } = await this.deps.store.list(caller.workspaceId, request.query.trim(), normalisePage(request.page));
    return { assistants: assistants.map((assistant) => presentAssistant(assistant, this.deps.secrets)), total };
  }

  async updateAssistant(request: UpdateAssistantRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const input = validate(updateAssistantBodySchema, { ...(request.changes ?? {}), expected_revision: request.expectedRevision || undefined });
    if (!input.ok) throw invalidRequest(input.issues);
    const current = await loadAssistant(this.deps.store, request.id, context);
    if (input.value.expected_revision !== current.revision) throw revisionConflict(current.revision);
    const allowed = await allowedProvidersOf(this.deps.settings, caller.workspaceId);
    const prepared = this.deps.configurations.prepare(current.config, request.changes ?? {}, planOf(request.workspacePlan), allowed);
    // Only what was sent: a tool deleted since the last write does not block an unrelated change.
    await this.deps.references.check(caller, prepared.config, Object.keys(request.changes ?? {}));
    const at = this.deps.now().toISOString();
    const outcome = await this.deps.store.update(
      caller.workspaceId,
      current.id,
      current.revision,
      { name: prepared.name, config: prepared.config, updatedAt: at },
      {
        workspaceId: caller.workspaceId,
        assistantId: current.id,
        number: current.revision + 1,
        config: prepared.config,
        author: authorOf(caller),
        changedFields: changedFields(current.config, prepared.config),
        restoredFrom: 0,
        createdAt: at,
      },
    );
    switch (outcome.kind) {
      case 'updated':
        return { assistant: presentAssistant(outcome.assistant, this.deps.secrets) };
      case 'not_found':
        throw notFound('assistant');
      case 'revision_conflict':
        throw revisionConflict();
    }
  }

  async deleteAssistant(request: { id: string }, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const assistant = await loadAssistant(this.deps.store, request.id, context);
    await this.deps.references.ensureUnused(caller, assistant.id);
    if (!(await this.deps.store.delete(caller.workspaceId, assistant.id))) throw notFound('assistant');
    return {};
  }
}

/** The caller's assistant by id; another workspace's, a missing or a malformed id is not found. */
export async function loadAssistant(store: Pick<AssistantStore, 'get'>, id: string, context: HandlerContext): Promise<AssistantRecord> {
  const caller = workspaceCallerOf(context);
  const assistant = isUuid(id) ? await store.get(caller.workspaceId, id) : undefined;
  if (!assistant) throw notFound('assistant');
  return assistant;
}
