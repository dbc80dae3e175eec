// /assistants, their versions, /catalog/models and /voices (issue 15; API.md 10): the assistant
// configuration, its history and the catalog it is checked against for the workspace's plan.
import {
  assistantSchema,
  catalogListSchema,
  catalogModelSchema,
  catalogVoiceSchema,
  versionSchema,
  versionSummarySchema,
  createAssistantBodySchema,
  listAssistantsQuerySchema,
  listModelsQuerySchema,
  listVoicesQuerySchema,
  restoreVersionBodySchema,
  updateAssistantBodySchema,
} from '@voice/contracts/assistants';
import { pageQuerySchema, definedFields } from '@voice/runtime/validation';
import type { JsonObject } from '@bufbuild/protobuf';
import type { RestRouter } from './router.js';
import type { RestDeps } from './deps.js';
import { replayHeaders, toolHints } from './operation.js';
import {
  presentAssistant,
  presentCatalogModel,
  presentCatalogVoice,
  presentVersion,
  presentVersionSummary,
} from './assistants-presenters.js';
import { deletedOf, listOf } from './presenters.js';
import { dataOf, deletedSchema, listOfSchema } from '@voice/contracts/responses';
import { pageOf } from './validate.js';

/** A version number in a path; anything else names no version (404, like a malformed id). */
const versionNumberOf = (raw: string): number => (/^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : 0);

const catalogDescription = 'Filter by `provider` and by `language` (a tag such as `en` or `de-DE`; entries for every language always match).';

export function registerAssistantRoutes(rest: RestRouter, deps: RestDeps): void {
  const { assistants, assistantVersions: versions, catalog } = deps.clients;

  rest.operation({
    method: 'get',
    path: '/assistants',
    scope: 'assistants:read',
    query: listAssistantsQuerySchema,
    doc: {
      id: 'listAssistants',
      summary: 'The workspace’s assistants, newest first; `q` matches the name',
      description: '`q` is a case-insensitive substring of the name (`%` and `_` match themselves).',
      toolset: 'assistants',
      response: listOfSchema(assistantSchema),
      mcp: { tool: 'list_assistants', annotations: toolHints.read },
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await assistants.listAssistants({ query: call.query.q ?? '', page }, call.options);
      return { body: listOf(answer.assistants.map(presentAssistant), page, answer.total) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/assistants',
    scope: 'assistants:write',
    body: createAssistantBodySchema,
    idempotent: true,
    doc: {
      id: 'createAssistant',
      summary: 'Create an assistant with its whole configuration',
      description:
        'Only `name` is required; every other field has a default, and the answer shows the whole configuration. `model`, `transcriber` and `voice` must name entries of the catalog (`GET /catalog/models`, `GET /voices`): an unknown one is 400 naming the field, one the workspace’s plan does not include is 403. Each `builtin_tools` item has the shape of a builtin tool’s config; its secrets are answered as the mask `•••`. Writes version 1 of the configuration history. With an `Idempotency-Key` a retry answers 201 with the first body and `Idempotent-Replayed: true`.',
      toolset: 'assistants',
      status: 201,
      response: dataOf(assistantSchema),
      mcp: { tool: 'create_assistant', annotations: toolHints.create },
    },
    handle: async (call) => {
      const answer = await assistants.createAssistant(
        { config: definedFields(call.body) as JsonObject, idempotencyKey: call.idempotencyKey, workspacePlan: call.auth.workspace.plan },
        call.options,
      );
      return { body: { data: presentAssistant(answer.assistant!) }, headers: replayHeaders(answer.replayed) };
    },
  });

  rest.operation({
    method: 'get',
    path: '/assistants/:id',
    scope: 'assistants:read',
    doc: {
      id: 'getAssistant',
      summary: 'An assistant with its whole configuration, secrets masked',
      toolset: 'assistants',
      response: dataOf(assistantSchema),
      mcp: { tool: 'get_assistant', annotations: toolHints.read },
    },
    handle: async (call) => {
      const answer = await assistants.getAssistant({ id: call.params.id }, call.options);
      return { body: { data: presentAssistant(answer.assistant!) } };
    },
  });

  rest.operation({
    method: 'patch',
    path: '/assistants/:id',
    scope: 'assistants:write',
    body: updateAssistantBodySchema,
    doc: {
      id: 'updateAssistant',
      summary: 'Change an assistant’s configuration',
      description:
        'Each top-level field sent replaces the stored one whole (send all of `model` to change its temperature); fields not sent stay. `expected_revision` must be the assistant’s current `revision` (409 `revision_conflict` otherwise). Sending the mask `•••` for a builtin tool’s secret keeps the stored one while the item’s type and destination stay the same. Writes a new version.',
      toolset: 'assistants',
      response: dataOf(assistantSchema),
      mcp: { tool: 'update_assistant', annotations: toolHints.update },
    },
    handle: async (call) => {
      const { expected_revision: expectedRevision, ...changes } = call.body;
      const answer = await assistants.updateAssistant(
        { id: call.params.id, expectedRevision, changes: definedFields(changes) as JsonObject, workspacePlan: call.auth.workspace.plan },
        call.options,
      );
      return { body: { data: presentAssistant(answer.assistant!) } };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/assistants/:id',
    scope: 'assistants:write',
    doc: {
      id: 'deleteAssistant',
      summary: 'Delete an assistant and its configuration history',
      description: '409 `conflict` while a phone number (its `assistant_id`) or a builtin tool (an `assistant_transfer`) still names the assistant.',
      toolset: 'assistants',
      response: deletedSchema,
      mcp: { tool: 'delete_assistant', annotations: toolHints.remove },
    },
    handle: async (call) => {
      const id = call.params.id;
      await assistants.deleteAssistant({ id }, call.options);
      return { body: deletedOf(id) };
    },
  });

  rest.operation({
    method: 'get',
    path: '/assistants/:id/versions',
    scope: 'assistants:read',
    query: pageQuerySchema,
    doc: {
      id: 'listAssistantVersions',
      summary: 'An assistant’s configuration history, newest first',
      description: 'Every create, update and restore wrote one version, numbered like the `revision` it produced.',
      toolset: 'assistants',
      response: listOfSchema(versionSummarySchema),
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await versions.listAssistantVersions({ assistantId: call.params.id, page }, call.options);
      return { body: listOf(answer.versions.map(presentVersionSummary), page, answer.total) };
    },
  });

  rest.operation({
    method: 'get',
    path: '/assistants/:id/versions/:number',
    scope: 'assistants:read',
    doc: {
      id: 'getAssistantVersion',
      summary: 'One version of an assistant’s configuration, with the fields it changed',
      toolset: 'assistants',
      response: dataOf(versionSchema),
    },
    handle: async (call) => {
      const answer = await versions.getAssistantVersion({ assistantId: call.params.id, number: versionNumberOf(call.params.number) }, call.options);
      return { body: { data: presentVersion(answer.version!) } };
    },
  });

  rest.operation({
    method: 'post',
    path: '/assistants/:id/versions/:number/restore',
    scope: 'assistants:write',
    body: restoreVersionBodySchema,
    doc: {
      id: 'restoreAssistantVersion',
      summary: 'Make an earlier version the assistant’s configuration again',
      description:
        'Writes a new version equal to version `number` (its `restored_from`). The restored configuration is checked against today’s catalog and plan. With `expected_revision`, a stale revision is 409 `revision_conflict`.',
      toolset: 'assistants',
      response: dataOf(assistantSchema),
    },
    handle: async (call) => {
      const answer = await versions.restoreAssistantVersion(
        {
          assistantId: call.params.id,
          number: versionNumberOf(call.params.number),
          expectedRevision: call.body.expected_revision ?? 0,
          workspacePlan: call.auth.workspace.plan,
        },
        call.options,
      );
      return { body: { data: presentAssistant(answer.assistant!) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/catalog/models',
    scope: 'assistants:read',
    query: listModelsQuerySchema,
    doc: {
      id: 'listCatalogModels',
      summary: 'The language models and transcribers assistants may use, with the plans that include each',
      description: `\`kind\` is \`llm\` (for \`model\`) or \`transcriber\`. ${catalogDescription}`,
      toolset: 'assistants',
      response: catalogListSchema(catalogModelSchema),
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await catalog.listModels({ kind: call.query.kind, provider: call.query.provider, language: call.query.language, page }, call.options);
      const list = listOf(answer.models.map(presentCatalogModel), page, answer.total);
      return { body: { ...list, meta: { ...list.meta, catalog_version: answer.catalogVersion } } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/voices',
    scope: 'voices:read',
    query: listVoicesQuerySchema,
    doc: {
      id: 'listVoices',
      summary: 'The voices assistants may speak with, with the plans that include each',
      description: catalogDescription,
      toolset: 'assistants',
      response: catalogListSchema(catalogVoiceSchema),
      mcp: { tool: 'get_voices', annotations: toolHints.read },
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await catalog.listVoices({ provider: call.query.provider, language: call.query.language, page }, call.options);
      const list = listOf(answer.voices.map(presentCatalogVoice), page, answer.total);
      return { body: { ...list, meta: { ...list.meta, catalog_version: answer.catalogVersion } } };
    },
  });
}
