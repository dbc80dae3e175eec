// The ToolsService: validation by type, secrets sealed and masked, revision-checked updates,
// idempotent creates, and test runs. The workspace always comes from the signed caller.
import type { JsonObject } from '@bufbuild/protobuf';
import { create, fromJson } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { workspaceCallerOf, type Caller } from '@voice/runtime/caller';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { idempotencyClaim } from '@voice/runtime/idempotency';
import { isUuid, newId } from '@voice/runtime/ids';
import { monotonicClock } from '@voice/runtime/time';
import { definedFields, isJsonWithin, maxCarriedJsonDepth, normalisePage, validate } from '@voice/runtime/validation';
import {
  TestToolResponseSchema,
  type ToolsService,
  type CreateToolRequest,
  type ListToolsRequest,
  type UpdateToolRequest,
  type TestToolRequest,
} from '@voice/proto/voice/tools/v1/tools';
import {
  configSchemas,
  createToolBodySchema,
  toolTypes,
  updateToolBodySchema,
  type ApiToolConfig,
  type McpToolConfig,
  type ToolType,
} from '@voice/contracts/tools';
import type { ToolSecrets } from '@voice/contracts/tool-secrets';
import { presentTool } from './presenter.js';
import type { ToolRunner } from './runner.js';
import type { ToolChanges, ToolRecord, ToolStore } from './store/store.js';
import { EgressRefused } from '@voice/runtime/egress';
import { unknownAssistantIssue, type AssistantLookup } from '@voice/runtime/internal';
import { ToolArgumentError, type TestOutcome } from './testing/outcome.js';

export interface ToolsDeps {
  store: ToolStore;
  secrets: ToolSecrets;
  runner: ToolRunner;
  /** Checks the assistant a builtin tool names; the service's own tests run without an assistants service. */
  assistants?: AssistantLookup;
  now?: () => Date;
}

export class ToolsServiceImpl implements ServiceImpl<typeof ToolsService> {
  private readonly now: () => Date;

  constructor(private readonly deps: ToolsDeps) {
    this.now = deps.now ?? monotonicClock();
  }

  async createTool(request: CreateToolRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const body = definedFields({
      name: request.name,
      description: request.description || undefined,
      type: request.type,
      config: request.config,
      is_active: request.isActive,
    });
    const input = validate(createToolBodySchema, body);
    if (!input.ok) throw invalidRequest(input.issues);
    const config = this.sealConfig(input.value.type, input.value.config ?? {}, undefined);
    await this.checkAssistant(config, caller);
    const at = this.now();
    const record: ToolRecord = {
      id: newId(),
      workspaceId: caller.workspaceId,
      name: input.value.name,
      description: input.value.description ?? '',
      type: input.value.type,
      config,
      isActive: input.value.is_active ?? true,
      revision: 1,
      createdAt: at.toISOString(),
      updatedAt: at.toISOString(),
    };
    const claim = request.idempotencyKey ? idempotencyClaim(request.idempotencyKey, body, at) : undefined;
    const outcome = await this.deps.store.create(record, claim);
    switch (outcome.kind) {
      case 'created':
      case 'replayed':
        return { tool: presentTool(outcome.tool, this.deps.secrets), replayed: outcome.kind === 'replayed' };
      case 'name_taken':
        throw serviceError('conflict', `a tool named "${record.name}" already exists in this workspace`);
      case 'key_reused':
        throw serviceError('conflict', 'this Idempotency-Key was already used with a different request body');
    }
  }

  async getTool(request: { id: string }, context: HandlerContext) {
    return { tool: presentTool(await this.load(request.id, context), this.deps.secrets) };
  }

  async listTools(request: ListToolsRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    if (request.type !== undefined && !(toolTypes as readonly string[]).includes(request.type)) {
      throw invalidRequest([{ field: 'type', issue: `must be one of ${toolTypes.join(', ')}` }]);
    }
    const { tools, total } = await this.deps.store.list(
      caller.workspaceId,
      { type: request.type as ToolType | undefined, isActive: request.isActive, assistantId: request.assistantId },
      normalisePage(request.page),
    );
    return { tools: tools.map((tool) => presentTool(tool, this.deps.secrets)), total };
  }

  async updateTool(request: UpdateToolRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const input = validate(
      updateToolBodySchema,
      definedFields({
        name: request.name,
        description: request.description,
        type: request.type,
        config: request.config,
        is_active: request.isActive,
        expected_revision: request.expectedRevision === 0 ? undefined : request.expectedRevision,
      }),
    );
    if (!input.ok) throw invalidRequest(input.issues);
    const current = await this.load(request.id, context);
    const changes = input.value;
    if (changes.type !== undefined && changes.type !== current.type) {
      throw invalidRequest([{ field: 'type', issue: `is immutable; this tool is of type ${current.type}` }]);
    }
    if (changes.expected_revision !== current.revision) throw revisionConflict(current.revision);
    const update: ToolChanges = {
      name: changes.name,
      description: changes.description,
      isActive: changes.is_active,
      config: changes.config === undefined ? undefined : this.sealConfig(current.type, changes.config, current.config),
    };
    if (update.config) await this.checkAssistant(update.config, caller);
    const outcome = await this.deps.store.update(caller.workspaceId, current.id, changes.expected_revision, update, this.now().toISOString());
    switch (outcome.kind) {
      case 'updated':
        return { tool: presentTool(outcome.tool, this.deps.secrets) };
      case 'not_found':
        throw notFound('tool');
      case 'revision_conflict':
        throw revisionConflict();
      case 'name_taken':
        throw serviceError('conflict', `a tool named "${changes.name}" already exists in this workspace`);
    }
  }

  async deleteTool(request: { id: string }, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    if (!isUuid(request.id) || !(await this.deps.store.delete(caller.workspaceId, request.id))) throw notFound('tool');
    return {};
  }

  async testTool(request: TestToolRequest, context: HandlerContext) {
    const tool = await this.load(request.id, context);
    if (tool.type === 'builtin') {
      throw serviceError('invalid_request', 'builtin tools run inside calls and cannot be tested on their own', {
        fields: [{ field: 'type', issue: 'builtin tools cannot be tested' }],
      });
    }
    // The stored config passed its schema (defaults included) when it was written.
    const opened = this.deps.secrets.open(tool.type, tool.config);
    try {
      const args = request.arguments ?? {};
      const outcome =
        tool.type === 'api' ? await this.deps.runner.runApi(opened as ApiToolConfig, args) : await this.deps.runner.listMcp(opened as McpToolConfig);
      return toResponse(outcome);
    } catch (error) {
      if (error instanceof EgressRefused) {
        throw serviceError('destination_forbidden', `the tool's destination ${error.host} is a private or reserved address`, { cause: error });
      }
      if (error instanceof ToolArgumentError) throw invalidRequest(error.issues);
      throw error;
    }
  }

  /** A config that names an assistant (assistant_transfer) must name one of the caller's workspace. */
  private async checkAssistant(config: JsonObject, caller: Caller): Promise<void> {
    const assistantId = config.assistant_id;
    if (typeof assistantId !== 'string' || !this.deps.assistants) return;
    if (!(await this.deps.assistants.exists(caller, assistantId))) throw invalidRequest([{ field: 'config.assistant_id', issue: unknownAssistantIssue }]);
  }

  private async load(id: string, context: HandlerContext): Promise<ToolRecord> {
    const caller = workspaceCallerOf(context);
    const tool = isUuid(id) ? await this.deps.store.get(caller.workspaceId, id) : undefined;
    if (!tool) throw notFound('tool');
    return tool;
  }

  /** Validates config for the type and seals its secrets; a mask keeps what `stored` holds. */
  private sealConfig(type: ToolType, config: JsonObject, stored: JsonObject | undefined): JsonObject {
    const parsed = validate(configSchemas[type], config, ['config']);
    if (!parsed.ok) throw invalidRequest(parsed.issues);
    const sealed = this.deps.secrets.seal(type, parsed.value as JsonObject, stored);
    if (sealed.issues.length > 0) throw invalidRequest(sealed.issues);
    return sealed.config;
  }
}

const revisionConflict = (current?: number) =>
  serviceError(
    'revision_conflict',
    current === undefined
      ? 'the tool was changed by another request; read it again and retry with its revision'
      : `expected_revision is stale; the tool is at revision ${current}`,
  );

/** An upstream answer nested deeper than a Struct can carry is reported, never sent (it would fail the call). */
function carriable(outcome: TestOutcome): TestOutcome {
  const payloads = outcome.kind === 'http' ? [outcome.body, outcome.mapped] : outcome.kind === 'mcp' ? outcome.tools.map((t) => t.inputSchema) : [];
  if (payloads.every((payload) => isJsonWithin(payload, maxCarriedJsonDepth))) return outcome;
  return { kind: 'failure', code: 'bad_response', message: `the response is nested more than ${maxCarriedJsonDepth} levels deep`, durationMs: outcome.durationMs };
}

function toResponse(result: TestOutcome) {
  const outcome = carriable(result);
  const durationMs = Math.round(outcome.durationMs);
  switch (outcome.kind) {
    case 'http':
      return create(TestToolResponseSchema, {
        durationMs,
        result: { case: 'http', value: { status: outcome.status, body: fromJson(ValueSchema, outcome.body), mapped: outcome.mapped } },
      });
    case 'mcp':
      return create(TestToolResponseSchema, { durationMs, result: { case: 'mcp', value: { tools: outcome.tools } } });
    case 'failure':
      return create(TestToolResponseSchema, {
        durationMs,
        result: { case: 'failure', value: { code: outcome.code, message: outcome.message } },
      });
  }
}
